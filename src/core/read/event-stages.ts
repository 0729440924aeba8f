// A v0 log's header and kept events through dsh 0.1.1's stages, in dsh's order: the header, adopt
// (legacy shapes upgraded, message shapes checked), known-types, the closer scan, and the seed (envelope,
// shapes, the surface fold). Each stage's refusal goes to the verdict keeper with the line and seq it concerns, and a refused
// replace or tool result names the events around it (`related`). The event is then indexed and handed
// to the whole-log facts, so one pass over the file gives the verdict, the model and the facts.
import type { RelatedPlace, SessionEvent } from '../types';
import { validateHeader, type HeaderRead } from './header';
import { LegacyRefusal, upgradeLegacyEvent } from './legacy';
import { checkMessageShape, checkSeedEnvelope } from './event-shape';
import { KNOWN_TYPE_COUNT, TypeId } from './known-types';
import { SurfaceRole } from './event-index';
import { RepairTypeError } from '../surface/repair';
import { SurfaceError, type SurfacePlan } from '../surface/surface';
import { toolCallCount } from '../surface/projections';
import { deepFreeze } from '../surface/surface-state';
import { markerEndpoints } from '../vocabulary/surface-marker';
import { stringText, valueText } from '../value-text';
import { say, type Said } from '../words';
import { sessionIdOf, type LogParts } from './log-parts';
import { eventAt, eventTypeAt, placeAt } from './log-lookup';

/** The header stage of a v0 log: the header line refused as dsh refuses it, or its session fields as the seed does. */
export function keepHeader(parts: LogParts, read: HeaderRead): void {
  const problem = read.problem;
  if (problem) {
    parts.verdicts.refuse('header', {
      dshError: problem.message,
      errorName: problem.unsupported ? 'SessionFormatUnsupportedError' : 'Error',
      rule: problem.rule,
      line: 1,
    });
  } else if (read.header) {
    parts.headerSeedError = validateHeader(read.header);
    if (parts.headerSeedError)
      parts.verdicts.refuse('seed', { dshError: parts.headerSeedError, errorName: 'Error', rule: 'header.session-fields', line: 1 });
  }
}

/** Runs one kept event through adopt, known-types, the closer scan and the seed, and indexes it. */
export function keepEvent(parts: LogParts, stored: Record<string, unknown>, fileLine: number, offset: number, length: number): void {
  const { index, verdicts } = parts;
  const seq = index.count;
  const id = sessionIdOf(parts);
  // The type is looked up once; the stages below switch on its number.
  let typeId = index.typeIdOf(stored.type);
  // The retired shapes are request/header and two types this reader does not know.
  if (typeId === TypeId.RequestHeader || typeId >= KNOWN_TYPE_COUNT) verdicts.retired.observe(stored);

  // adopt: upgrade legacy shapes, then check message shapes.
  let event = stored as unknown as SessionEvent;
  // Set once adopt has checked the message shape (pass or fail): the seed step does not check or
  // report the same shape again. (When adopt refuses, the seed's verdict no longer matters.)
  let shapeChecked = true;
  if (adoptMayChange(typeId)) {
    shapeChecked = false;
    try {
      event = upgradeLegacyEvent(event, id, parts.messageIdAt);
      if (event !== (stored as unknown)) typeId = index.typeIdOf(event.type);
      const shape = isMessageType(typeId)
        ? checkMessageShape(event as unknown as Record<string, unknown>, 'session event at seq', seq)
        : undefined;
      shapeChecked = true;
      if (shape)
        verdicts.problem('adopt', {
          dshError: shape.message,
          errorName: 'Error',
          rule: shape.rule,
          line: fileLine,
          seq,
          related: callContext(parts, event),
        });
    } catch (error) {
      if (error instanceof LegacyRefusal)
        verdicts.problem('adopt', { dshError: error.message, errorName: 'Error', rule: error.rule, line: fileLine, seq });
      else internalProblem(parts, error, fileLine, seq);
    }
    if (event !== (stored as unknown)) index.upgraded.set(seq, deepFreeze(event));
  }

  // known-types
  const type = event.type;
  if (typeId >= KNOWN_TYPE_COUNT && event.ignorable !== true) {
    verdicts.problem('known-types', {
      dshError: `session "${id}" contains event type "${stringText(type)}" (seq ${seq}) unknown to this harness and not marked ignorable; refusing to interpret the log — it was likely written by a newer harness`,
      errorName: 'SessionFormatUnsupportedError',
      rule: 'vocabulary.unknown-types',
      line: fileLine,
      seq,
    });
  }

  // closers: the repair scan
  try {
    parts.state.closerScan.observe(event, typeId);
  } catch (error) {
    if (error instanceof RepairTypeError)
      verdicts.problem('closers', { dshError: error.message, errorName: 'TypeError', rule: 'envelope.null-data', line: fileLine, seq });
    else internalProblem(parts, error, fileLine, seq);
  }

  // seed: envelope, shapes, surface
  const role = seedEvent(parts, event, seq, fileLine, shapeChecked);
  const data = event.data as { turn?: unknown; step?: unknown } | null;
  const turn = data?.turn;
  const step = data?.step;
  const toolCalls = typeId === TypeId.AssistantMessage ? toolCallCount(event) : 0;
  index.pushEvent(typeId, turn, step, toolCalls, role, fileLine, offset, length);
  verdicts.noteLine(stored, seq, seq + 1);
  // The facts take the turn and step as turn() and step() give them: numbers, else undefined.
  parts.gathered?.observeEvent(seq, event, typeId, numberOrUndefined(turn), numberOrUndefined(step), role);
}

/** The seed step for one event; returns its surface role. After a seed refusal the fold goes on leniently. */
function seedEvent(parts: LogParts, event: SessionEvent, seq: number, fileLine: number, messageShapeChecked: boolean): SurfaceRole {
  const envelope = checkSeedEnvelope(event as unknown as Record<string, unknown>, seq, messageShapeChecked);
  if (envelope) {
    parts.verdicts.seedProblem({ dshError: envelope.message, errorName: 'Error', rule: envelope.rule, line: fileLine, seq });
    return SurfaceRole.None;
  }
  const fold = parts.state.fold;
  let plan: SurfacePlan | undefined;
  try {
    plan = fold.plan(event, seq, parts.lookup);
  } catch (error) {
    // An engine limit (a RangeError: the stack, a string's length) is ours, never dsh's verdict.
    if (error instanceof RangeError) {
      internalProblem(parts, error, fileLine, seq);
      return SurfaceRole.None;
    }
    const message = error instanceof Error ? error.message : valueText(error);
    const rule = error instanceof SurfaceError ? error.rule : 'surface.marker-shape';
    parts.verdicts.seedProblem({
      dshError: `invalid seed event at index ${seq}: ${message}`,
      errorName: 'Error',
      rule,
      line: fileLine,
      seq,
      related: surfaceContext(parts, event, rule),
    });
    return SurfaceRole.None;
  }
  fold.apply(plan);
  return plan === undefined ? SurfaceRole.None : plan.kind === 'append' ? SurfaceRole.Append : SurfaceRole.Replace;
}

/**
 * For a tool/result refused for its shape: the tool/calls its ids name, found by walking back over
 * earlier tool/call events (an error path only, so no index is kept for it).
 */
function callContext(parts: LogParts, event: SessionEvent): RelatedPlace[] | undefined {
  if (event.type !== 'tool/result') return undefined;
  const message = event.data?.message;
  const named = new Map<string, Said>();
  if (typeof message?.source?.callId === 'string') named.set(message.source.callId, say("the call this result's source names"));
  const blockId = Array.isArray(message?.content) ? message.content[0]?.toolCallId : undefined;
  if (typeof blockId === 'string' && !named.has(blockId)) named.set(blockId, say('the call its tool-result block answers'));
  const related: RelatedPlace[] = [];
  let looked = 0;
  for (let seq = parts.index.count - 1; seq >= 0 && named.size > 0 && looked < 10_000; seq--) {
    if (eventTypeAt(parts, seq) !== 'tool/call') continue;
    looked += 1;
    const callId = eventAt(parts, seq)?.data?.callId;
    const label = named.get(callId);
    if (label === undefined) continue;
    related.push({ ...placeAt(parts, seq), seq, ...say('{0}: tool/call {1}', label, valueText(callId)) });
    named.delete(callId);
  }
  for (const [callId, label] of named) related.push(say('{0} ({1}) has no earlier tool/call', label, valueText(callId)));
  return related.length > 0 ? related : undefined;
}

/** Where a refused replace points: the nodes it targets, where a missing endpoint went, what it fails to cite. */
function surfaceContext(parts: LogParts, event: SessionEvent, rule: string): RelatedPlace[] | undefined {
  const op = event.surfaceOp;
  if (typeof op !== 'object' || op === null) return undefined;
  const fold = parts.state.fold;
  const nodes = fold.nodes;
  const eventCount = parts.index.count;
  const at = (seq: number, message: Said): RelatedPlace => ({ ...placeAt(parts, seq), seq, ...message });
  const related: RelatedPlace[] = [];
  const { start, end } = markerEndpoints(op);
  for (const endpoint of [start, end]) {
    if (typeof endpoint !== 'number' || nodes.includes(endpoint) || endpoint >= eventCount) continue;
    const shadowedBy = fold.replacements.find((r) => r.shadowedSeqs.includes(endpoint));
    if (shadowedBy) related.push(at(shadowedBy.seq, say('seq {0} left the surface here: this event replaced it', endpoint)));
    else related.push(at(endpoint, say('seq {0} is a {1}, not a surface node', endpoint, String(eventTypeAt(parts, endpoint)))));
  }
  const startIdx = nodes.indexOf(start as number);
  const endIdx = nodes.indexOf(end as number);
  if (startIdx >= 0 && endIdx >= startIdx) {
    const shadowed = nodes.slice(startIdx, endIdx + 1);
    const cited = new Set(Array.isArray(event.sourceEventSeqs) ? event.sourceEventSeqs : []);
    for (const seq of shadowed.slice(0, 5)) {
      if (rule.startsWith('toolresult-rewrite'))
        related.push(at(seq, say('the {0} this replacement targets', String(eventTypeAt(parts, seq)))));
      else if (rule === 'replace.sources-cover-shadowed' && !cited.has(seq))
        related.push(at(seq, say('shadowed here but not cited in sourceEventSeqs')));
    }
  }
  return related.length > 0 ? related : undefined;
}

/**
 * Reading never throws on bad input: a shape no rule anticipated is reported on its line (so it can
 * be fixed) and the scan goes on.
 */
export function internalProblem(parts: LogParts, error: unknown, line: number, seq: number): void {
  parts.verdicts.report({
    severity: 'warning',
    rule: 'reader.unexpected-shape',
    ...say('seq {0} has a shape the reader did not expect: {1}', seq, error instanceof Error ? error.message : valueText(error)),
    line,
    seq,
  });
}

/** The types whose stored shape adopt may upgrade or check (turn/start, turn/end, the message events, and the unknown ones, steering/message among them). */
function adoptMayChange(typeId: number): boolean {
  return typeId >= KNOWN_TYPE_COUNT || typeId === TypeId.TurnStart || typeId === TypeId.TurnEnd || isMessageType(typeId);
}

/** The three message events (their message shapes are checked). */
function isMessageType(typeId: number): boolean {
  return typeId === TypeId.UserMessage || typeId === TypeId.AssistantMessage || typeId === TypeId.ToolResult;
}

/** A number as turn() and step() give it; undefined for anything else (NaN included). */
export function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && value === value ? value : undefined;
}
