// The surface as it stood after a given seq, and a comparison of the derived messages at two points
// (for instance just before and just after a compaction). Replays only the surface events up to the
// point (appends and replacements), not the whole log.
import { type SessionLog, derivedMessageOf } from '../../core';
import { eventSummary, messageSummary, typeLabel, type Formatter } from '../../present';
import type { AsOfNode, DiffEntry, MessagesDiff, SurfaceAsOf } from '../../protocol';
import type { TimelineIndex } from './timeline-index';

/** Most entries a diff lists (its counts stay whole). */
const MAX_DIFF_ENTRIES = 2000;

/** The surface nodes after folding every event up to and including `seq`. */
export function surfaceNodesAsOf(log: SessionLog, index: TimelineIndex, seq: number): number[] {
  if (seq >= log.eventCount - 1) return [...log.surface()];
  const bySeq = new Map(log.replacements().map((r) => [r.seq, r]));
  const nodes: number[] = [];
  const events = index.surfaceEvents;
  for (let i = 0; i < events.length; i++) {
    const s = events.get(i);
    if (s > seq) break;
    const replacement = bySeq.get(s);
    if (!replacement) {
      nodes.push(s);
      continue;
    }
    const from = nodes.indexOf(replacement.start);
    const to = nodes.indexOf(replacement.end);
    if (from >= 0 && to >= from) nodes.splice(from, to - from + 1, s);
  }
  return nodes;
}

/** The nodes of a surface that give a derived message: the messages the model sees at that point. */
function messageNodes(index: TimelineIndex, nodes: readonly number[]): number[] {
  return nodes.filter((s) => index.givesMessageAt(s));
}

function nodeSummary(log: SessionLog, seq: number, fmt: Formatter): string {
  const event = log.event(seq);
  if (!event) return '';
  const message = derivedMessageOf(event);
  return message ? messageSummary(message, fmt) : eventSummary(event, fmt);
}

export function surfaceAsOf(log: SessionLog, index: TimelineIndex, fmt: Formatter, seq: number, start: number, count: number): SurfaceAsOf {
  const nodes = surfaceNodesAsOf(log, index, seq);
  const end = Math.min(nodes.length, start + count);
  // Message indexes need the nodes before the window too; event bodies are parsed once per seq.
  let messageIndex = 0;
  for (let i = 0; i < start && i < nodes.length; i++) if (index.givesMessageAt(nodes[i])) messageIndex += 1;
  const out: AsOfNode[] = [];
  for (let i = start; i < end; i++) {
    const s = nodes[i];
    const type = log.eventType(s) ?? '';
    const node: AsOfNode = { surfaceIndex: i, seq: s, type, label: typeLabel(type, fmt), summary: nodeSummary(log, s, fmt) };
    if (index.givesMessageAt(s)) node.messageIndex = messageIndex++;
    out.push(node);
  }
  let messageCount = messageIndex;
  for (let i = Math.max(end, start); i < nodes.length; i++) if (index.givesMessageAt(nodes[i])) messageCount += 1;
  return { asOfSeq: Math.min(seq, Math.max(0, log.eventCount - 1)), surfaceLength: nodes.length, messageCount, start, nodes: out };
}

/**
 * Compares the derived messages at two points. Surface ops only append nodes or replace a range by
 * one node, so the nodes both points share keep their relative order: one merge walk finds them.
 */
export function diffAsOf(log: SessionLog, index: TimelineIndex, fmt: Formatter, fromSeq: number, toSeq: number): MessagesDiff {
  const from = messageNodes(index, surfaceNodesAsOf(log, index, fromSeq));
  const to = messageNodes(index, surfaceNodesAsOf(log, index, toSeq));
  const inFrom = new Set(from);
  const inTo = new Set(to);
  const entries: DiffEntry[] = [];
  let added = 0;
  let removed = 0;
  let truncated = false;
  const push = (e: DiffEntry) => {
    if (entries.length < MAX_DIFF_ENTRIES) entries.push(e);
    else truncated = true;
  };
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    if (i < from.length && !inTo.has(from[i])) {
      removed += 1;
      push({ kind: 'removed', fromIndex: i, seq: from[i], summary: nodeSummary(log, from[i], fmt) });
      i += 1;
    } else if (j < to.length && !inFrom.has(to[j])) {
      added += 1;
      push({ kind: 'added', toIndex: j, seq: to[j], summary: nodeSummary(log, to[j], fmt) });
      j += 1;
    } else {
      const last = entries[entries.length - 1];
      if (last?.kind === 'same' && !truncated) last.count += 1;
      else push({ kind: 'same', count: 1, fromIndex: i, toIndex: j });
      i += 1;
      j += 1;
    }
  }
  return { fromSeq, toSeq, fromCount: from.length, toCount: to.length, added, removed, entries, truncated };
}
