// The whole log at a glance for the overview strip: per bucket of seqs, how many events are surface
// nodes, shadowed nodes, or carry a diagnostic, plus notable points (compactions, prunes, other
// replacements, crash repairs, errors and warnings). Small whatever the log's size.
import type { SessionLog } from '../../core';
import type { Overview, OverviewMarkKind, SeverityMark } from '../../protocol';
import type { TimelineIndex } from './timeline-index';

/** Most marks of one kind; the first per bucket is kept. */
const MAX_MARKS_PER_KIND = 500;

export function overview(log: SessionLog, index: TimelineIndex, buckets: number, problemSeqs: ReadonlyMap<number, SeverityMark>): Overview {
  const events = log.eventCount;
  const bucketSize = Math.max(1, Math.ceil(events / Math.max(1, buckets)));
  const n = Math.ceil(events / bucketSize);
  const surface = new Array<number>(n).fill(0);
  const shadowed = new Array<number>(n).fill(0);
  const problems = new Array<number>(n).fill(0);
  const marks: Overview['marks'] = [];
  const seen = new Map<OverviewMarkKind, { bucket: number; count: number }>();
  const mark = (kind: OverviewMarkKind, seq: number, bucket: number) => {
    const last = seen.get(kind) ?? { bucket: -1, count: 0 };
    if (last.bucket === bucket || last.count >= MAX_MARKS_PER_KIND) return;
    seen.set(kind, { bucket, count: last.count + 1 });
    marks.push({ kind, seq, bucket });
  };
  for (let seq = 0; seq < events; seq++) {
    const b = Math.floor(seq / bucketSize);
    const m = index.surfaceMark(seq);
    if (m === 'node') surface[b] += 1;
    else if (m === 'shadowed') shadowed[b] += 1;
    const type = log.eventType(seq);
    if (type === 'compaction/summary') mark('compaction', seq, b);
    else if (type === 'compaction/prune') mark('prune', seq, b);
    else if (log.surfaceRole(seq) === 2 && log.eventType(seq - 1) !== 'compaction/prune') mark('replacement', seq, b);
    else if (type === 'turn/end' && isRepairCloser(log, seq)) mark('repair', seq, b);
  }
  for (const [seq, severity] of problemSeqs) {
    if (seq < 0 || seq >= events) continue;
    const b = Math.floor(seq / bucketSize);
    problems[b] += 1;
    if (severity === 'error') mark('error', seq, b);
    else if (severity === 'warning') mark('warning', seq, b);
  }
  marks.sort((a, b) => a.seq - b.seq);
  return { events, bucketSize, surface, shadowed, problems, marks };
}

/** A turn/end dsh's crash repair wrote (reason `interrupted`, only ever synthesised by repair). */
function isRepairCloser(log: SessionLog, seq: number): boolean {
  const reason = (log.event(seq)?.data as { reason?: { kind?: unknown } } | undefined)?.reason;
  return reason?.kind === 'interrupted';
}
