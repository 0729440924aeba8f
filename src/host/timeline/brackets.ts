// Shadowed brackets: for each replacement, the nodes it shadowed, its summary excerpt and the tokens
// its compaction or prune recorded.
import type { SessionLog } from '../../core';
import { eventSummary, type Formatter } from '../../present';
import type { ShadowBracket } from '../../protocol';

const MAX_SEQS = 10_000;

/** The shadowedTokenCount of the compaction/summary or compaction/prune that priced a replacement. */
function recordedTokens(log: SessionLog, replacementSeq: number): number | undefined {
  for (let s = replacementSeq - 1; s >= Math.max(0, replacementSeq - 8); s--) {
    const type = log.eventType(s);
    if (type !== 'compaction/summary' && type !== 'compaction/prune') continue;
    const count = (log.event(s)?.data as { shadowedTokenCount?: unknown } | undefined)?.shadowedTokenCount;
    return typeof count === 'number' && Number.isFinite(count) ? count : undefined;
  }
  return undefined;
}

export function shadowBrackets(log: SessionLog, fmt: Formatter): ShadowBracket[] {
  return log.replacements().map((r) => {
    const type = log.eventType(r.seq) ?? '';
    const bracket: ShadowBracket = {
      replacementSeq: r.seq,
      replacementType: type,
      replacementLine: log.place(r.seq)?.line ?? 1,
      excerpt: eventSummary(log.event(r.seq) ?? { type }, fmt, 120),
      rangeStart: r.start,
      rangeEnd: r.end,
      shadowedCount: r.shadowedSeqs.length,
      shadowedSeqs: [...r.shadowedSeqs].sort((a, b) => a - b).slice(0, MAX_SEQS),
    };
    const tokens = recordedTokens(log, r.seq);
    if (tokens !== undefined) bracket.tokensText = fmt.t('{0} shadowed', fmt.tokens(tokens));
    return bracket;
  });
}
