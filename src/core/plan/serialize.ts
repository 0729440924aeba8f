// Serializes events the way dsh's writer does (spec §2.1): JSON without spaces, envelope keys in the
// writer's order — type, seq, time, data, ignorable, sourceEventSeqs, surfaceOp. Values dsh's lossless
// JSON rule cannot write (Date, undefined, functions, symbols, BigInt, non-finite numbers, cycles) are
// refused before any text is made; deep nesting is written without recursion.
import type { Diagnostic, SessionEvent, SessionHeader } from '../types';
import { checkedJsonCopy, jsonText } from '../value-text';
import { say } from '../words';

/** Why a line cannot be written: the value is not plain, lossless JSON (rule `json.lossless-values`). */
export interface RefusedLine {
  ok: false;
  reasons: Diagnostic[];
}

/** Thrown by the planners' line writers (`eventLine`, `closerLine`) for a value they were not meant to get. */
export class RefusedValueError extends TypeError {
  readonly rule = 'json.lossless-values';
}

type Envelope = Record<string, unknown>;

/** Reads a caller's event once, each field guarded, in `keys` order (absent fields left out). */
function envelope(value: unknown, keys: readonly string[]): Envelope | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Envelope = {};
  try {
    for (const key of keys) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined || key === 'type' || key === 'seq' || key === 'time' || key === 'data') out[key] = v;
    }
  } catch {
    return undefined;
  }
  return out;
}

function line(value: Envelope | undefined, what: string): string | RefusedLine {
  const checked = value === undefined ? { ok: false as const, reason: 'not an object' } : checkedJsonCopy(value);
  if (checked.ok) return jsonText(checked.copy);
  return {
    ok: false,
    reasons: [
      {
        severity: 'error',
        rule: 'json.lossless-values',
        ...say('{0} is not plain JSON ({1}): dsh writes only lossless JSON', what, checked.reason),
      },
    ],
  };
}

const EVENT_KEYS = ['type', 'seq', 'time', 'data', 'ignorable', 'sourceEventSeqs', 'surfaceOp'] as const;
/** Repair closers are written with surfaceOp before sourceEventSeqs (spec §2.1). */
const CLOSER_KEYS = ['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs'] as const;

/** An event's line in dsh's writer order, or why it cannot be written. Never throws. */
export function serializeEvent(event: SessionEvent): string | RefusedLine {
  return line(envelope(event, EVENT_KEYS), 'the event');
}

/** A repair closer's line (surfaceOp before sourceEventSeqs), or why it cannot be written. Never throws. */
export function serializeCloser(event: SessionEvent): string | RefusedLine {
  return line(envelope(event, CLOSER_KEYS), 'the closer');
}

/** The header line in the writer's key order, or why it cannot be written. Never throws. */
export function serializeHeader(header: SessionHeader): string | RefusedLine {
  const h = envelope(header, [
    'version',
    'id',
    'createdAt',
    'cwd',
    'parentSession',
    'seedLength',
    'origin',
    'delegationDepth',
    'agentPreset',
  ]);
  if (h === undefined) return line(undefined, 'the header');
  const ordered: Envelope = { type: 'session', version: h.version, id: h.id, createdAt: h.createdAt };
  for (const key of ['cwd', 'parentSession', 'seedLength', 'origin'] as const) if (h[key] !== undefined) ordered[key] = h[key];
  ordered.delegationDepth = h.delegationDepth ?? 0;
  if (h.agentPreset !== undefined) ordered.agentPreset = h.agentPreset;
  return line(ordered, 'the header');
}

/** The line of an event the planners built and checked (planAppend); throws RefusedValueError otherwise. */
export function eventLine(event: SessionEvent): string {
  return orThrow(serializeEvent(event));
}

/** The line of a closer; throws RefusedValueError where it cannot be written (see `serializeCloser`). */
export function closerLine(event: SessionEvent): string {
  return orThrow(serializeCloser(event));
}

function orThrow(result: string | RefusedLine): string {
  if (typeof result === 'string') return result;
  throw new RefusedValueError(result.reasons[0].message);
}
