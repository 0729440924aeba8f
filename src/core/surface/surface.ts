// The surface fold (spec §3 step 6, §4): the ordered seqs the model sees. Every candidate is planned
// against the current state without mutating it; only an accepted plan is applied, so a refused
// append leaves the surface untouched. The same transition serves loading and appending.
import type { Replacement, SessionEvent } from '../types';
import { SurfaceError, V0_SURFACE_RULES, replaceEndpoints, type SurfaceRules } from './surface-rules';
import { isSeq, jsonEqual } from '../read/json-values';

export { SurfaceError } from './surface-rules';

export type SurfacePlan =
  | { kind: 'append'; seq: number }
  | { kind: 'replace'; seq: number; start: number; end: number; startIdx: number; endIdx: number; shadowedSeqs: number[] };

/** Looks up an earlier event (for the tool/result rewrite rule). */
export type EventLookup = (seq: number) => SessionEvent | undefined;

/** The marker of a surface event: 'append', its replace endpoints, or undefined for a log-only event. */
function surfaceOpOf(event: SessionEvent, rules: SurfaceRules): 'append' | { start: number; end: number } | undefined {
  const raw = event as { surfaceOp?: unknown; sourceEventSeqs?: unknown };
  if (!rules.surfaceTypes.has(event.type)) {
    if (raw.surfaceOp !== undefined) {
      throw new SurfaceError(
        `session event "${event.type}" is not surface-eligible and cannot carry surfaceOp`,
        'surface.noneligible-carries-no-metadata',
      );
    }
    if (raw.sourceEventSeqs !== undefined) {
      throw new SurfaceError(
        `session event "${event.type}" is not surface-eligible and cannot carry sourceEventSeqs`,
        'surface.noneligible-carries-no-metadata',
      );
    }
    return undefined;
  }
  const op = raw.surfaceOp;
  if (op === undefined)
    throw new SurfaceError(
      `session event "${event.type}" is surface-eligible and requires a surfaceOp marker`,
      'surface.eligible-requires-marker',
    );
  if (op === 'append') return op;
  return replaceEndpoints(op, event.type, rules);
}

function checkProvenance(event: SessionEvent, shadowed: readonly number[]): void {
  const raw = (event as { sourceEventSeqs?: unknown }).sourceEventSeqs;
  // Most appends cite nothing: no set to build (this runs for every surface event of a large log).
  if (raw === undefined && shadowed.length === 0) return;
  let sources: Set<number> | undefined;
  if (raw !== undefined) {
    if (!Array.isArray(raw))
      throw new SurfaceError(`sourceEventSeqs on event at seq ${event.seq} must be an array when present`, 'sources.shape');
    if (raw.length === 0 && event.type !== 'assistant/message') {
      throw new SurfaceError('sourceEventSeqs must not be empty except on assistant/message', 'sources.empty-only-on-assistant');
    }
    let notEarlier: number | undefined;
    let ascending = true;
    // A sparse array cannot come from JSON text, so "dense" reduces to "every entry is a seq".
    for (let i = 0; i < raw.length; i++) {
      const source = raw[i];
      if (!isSeq(source)) {
        throw new SurfaceError(
          `session event "${event.type}" sourceEventSeqs must densely contain non-negative safe integers`,
          'sources.shape',
        );
      }
      if (i > 0 && source <= raw[i - 1]) ascending = false;
      if (notEarlier === undefined && source >= event.seq) notEarlier = source;
    }
    // Writers cite in ascending order, which rules out duplicates without building a set.
    if (!ascending) {
      sources = new Set(raw as number[]);
      if (sources.size !== raw.length) throw new SurfaceError('sourceEventSeqs must not contain duplicates', 'sources.no-duplicates');
    }
    if (notEarlier !== undefined) {
      throw new SurfaceError(
        `sourceEventSeqs must reference earlier events: ${notEarlier} >= current seq ${event.seq}`,
        'sources.earlier-only',
      );
    }
  }
  if (shadowed.length === 0) return;
  const cited = sources ?? new Set(Array.isArray(raw) ? (raw as number[]) : []);
  const missing = shadowed.filter((seq) => !cited.has(seq));
  if (missing.length > 0) {
    throw new SurfaceError(
      `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`,
      'replace.sources-cover-shadowed',
    );
  }
}

/** Blank the inner tool-result content so two tool/result data can be compared on everything else. */
function withoutResultContent(data: any): unknown {
  const block = data.message.content[0];
  return { ...data, message: { ...data.message, content: [{ ...block, content: null }] } };
}

function checkToolResultRewrite(event: SessionEvent, shadowed: readonly number[], lookup: EventLookup): void {
  if (event.type !== 'tool/result') return;
  if (shadowed.length !== 1)
    throw new SurfaceError('tool/result surface replacement must rewrite exactly one current node', 'toolresult-rewrite.single-node');
  const original = lookup(shadowed[0]);
  if (original?.type !== 'tool/result')
    throw new SurfaceError('tool/result surface replacement must target a current tool/result', 'toolresult-rewrite.target-type');
  if (!jsonEqual(withoutResultContent(original.data), withoutResultContent(event.data))) {
    throw new SurfaceError('tool/result surface replacement may change only content', 'toolresult-rewrite.content-only');
  }
}

/**
 * The protected system head (v3+): when the first surface node is a system/message, a replacement
 * that covers it must be a system/message covering exactly that node, and no other system/message
 * replace may take the head's place by covering more.
 */
function checkSystemHead(event: SessionEvent, startIdx: number, endIdx: number, nodes: readonly number[], lookup: EventLookup): void {
  // Only a replace from the head can touch it: the head's event is looked up (read again) only then.
  if (startIdx !== 0) return;
  const headIsSystem = nodes.length > 0 && lookup(nodes[0])?.type === 'system/message';
  if (!headIsSystem) return;
  if (event.type !== 'system/message' || endIdx !== 0)
    throw new SurfaceError(
      'the protected system head can be replaced only by a system/message covering exactly that head',
      'system-head.protected',
    );
}

export class SurfaceFold {
  constructor(readonly rules: SurfaceRules = V0_SURFACE_RULES) {}

  nodes: number[] = [];
  replaceGeneration = 0;
  readonly replacements: Replacement[] = [];
  /**
   * Each node's order key, ascending along the surface, so a replace finds its endpoints by binary
   * search instead of scanning a surface of tens of thousands of nodes: an append takes the next
   * key, a replacement the key of the first node it shadows.
   */
  private keys: number[] = [];
  /** The key of each seq on the surface, plus one (0: not on it), by seq (seqs are an event's place in the log). */
  private keyOf = new Int32Array(1024);
  private nextKey = 0;

  /** Validates `event` as the next event (seq `expectedSeq`); throws SurfaceError, never mutates. */
  plan(event: SessionEvent, expectedSeq: number, lookup: EventLookup): SurfacePlan | undefined {
    if (event.seq !== expectedSeq)
      throw new SurfaceError(`session event seq ${event.seq} is not contiguous; expected ${expectedSeq}`, 'seq.contiguity');
    const op = surfaceOpOf(event, this.rules);
    if (op === undefined) return undefined;
    if (op === 'append') {
      checkProvenance(event, []);
      return { kind: 'append', seq: event.seq };
    }
    const startIdx = this.position(op.start);
    if (startIdx === -1)
      throw new SurfaceError(`surface replace: start seq ${op.start} not found in surface`, 'replace.endpoints-on-current-surface');
    const endIdx = op.end === op.start ? startIdx : this.position(op.end);
    if (endIdx === -1)
      throw new SurfaceError(`surface replace: end seq ${op.end} not found in surface`, 'replace.endpoints-on-current-surface');
    if (startIdx > endIdx) {
      throw new SurfaceError(
        `surface replace: start seq ${op.start} (index ${startIdx}) is after end seq ${op.end} (index ${endIdx})`,
        'replace.endpoint-order',
      );
    }
    const shadowedSeqs = this.nodes.slice(startIdx, endIdx + 1);
    checkProvenance(event, shadowedSeqs);
    if (this.rules.toolResultContentOnly) checkToolResultRewrite(event, shadowedSeqs, lookup);
    if (this.rules.protectedSystemHead) checkSystemHead(event, startIdx, endIdx, this.nodes, lookup);
    return { kind: 'replace', seq: event.seq, start: op.start, end: op.end, startIdx, endIdx, shadowedSeqs };
  }

  apply(plan: SurfacePlan | undefined): void {
    if (!plan) return;
    if (plan.kind === 'append') {
      this.nodes.push(plan.seq);
      this.keys.push(this.nextKey);
      this.keep(plan.seq, this.nextKey++);
      return;
    }
    const count = plan.endIdx - plan.startIdx + 1;
    const key = this.keys[plan.startIdx];
    for (const seq of plan.shadowedSeqs) this.keep(seq, -1);
    this.nodes.splice(plan.startIdx, count, plan.seq);
    this.keys.splice(plan.startIdx, count, key);
    this.keep(plan.seq, key);
    this.replaceGeneration += 1;
    this.replacements.push({ seq: plan.seq, start: plan.start, end: plan.end, shadowedSeqs: plan.shadowedSeqs });
  }

  clone(): SurfaceFold {
    const copy = new SurfaceFold(this.rules);
    copy.nodes = this.nodes.slice();
    copy.keys = this.keys.slice();
    copy.keyOf = this.keyOf.slice();
    copy.nextKey = this.nextKey;
    copy.replaceGeneration = this.replaceGeneration;
    copy.replacements.push(...this.replacements);
    return copy;
  }

  /**
   * Where `seq` is on the surface, or -1: as `nodes.indexOf(seq)` (a seq is on the surface at most
   * once), which it falls back to should the keys not place it.
   */
  private position(seq: number): number {
    const key = Number.isInteger(seq) && seq >= 0 && seq < this.keyOf.length ? this.keyOf[seq] - 1 : -1;
    if (key >= 0) {
      const keys = this.keys;
      let low = 0;
      let high = keys.length - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const found = keys[middle];
        if (found === key) {
          if (this.nodes[middle] === seq) return middle;
          break;
        }
        if (found < key) low = middle + 1;
        else high = middle - 1;
      }
    }
    return this.nodes.indexOf(seq);
  }

  /** Notes the key of `seq` (-1: no longer on the surface). Seqs beyond an index's reach are found by scanning. */
  private keep(seq: number, key: number): void {
    if (!Number.isInteger(seq) || seq < 0 || seq >= MAX_KEYED_SEQ) return;
    if (seq >= this.keyOf.length) {
      const grown = new Int32Array(Math.min(Math.max(this.keyOf.length * 2, seq + 1), MAX_KEYED_SEQ));
      grown.set(this.keyOf);
      this.keyOf = grown;
    }
    this.keyOf[seq] = key + 1;
  }
}

/** Seqs at or above this are not keyed (a fold over events of a log never reaches it). */
const MAX_KEYED_SEQ = 2 ** 28;
