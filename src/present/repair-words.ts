// Crash-repair facts in the words people read, shared by the CLI and the editor so both say the same
// thing: what each closer code means, what a closer answers, whether an open turn looks live, what a
// torn tail is, and what a repair already in the log did.
import type { CloserCode, CloserReview, OpenTurnReview, PendingCall } from '../core/surface/crash-review';
import type { TornTail } from '../core/surface/torn-tail';
import type { RepairMade } from '../core/surface/repairs-made';
import type { OpenTurnActivity } from '../core/surface/liveness';

/** What a closer code tells the model, in plain words. */
export function closerCodeMeaning(code: CloserCode): string {
  return code === 'TOOL_OUTCOME_UNKNOWN'
    ? 'the call was recorded as started, but its result never was: whether it ran, and what it changed, is unknown. The model is told to repeat it only if it is read-only or idempotent, and otherwise to check first or ask'
    : 'the call was never recorded as started, so it did not run. The model is told it may call it again if it still needs it';
}

/** A short label for a code: "outcome unknown" / "never started". */
export function closerCodeLabel(code: CloserCode): string {
  return code === 'TOOL_OUTCOME_UNKNOWN' ? 'outcome unknown' : 'never started';
}

function callName(call: { callId?: string; toolName?: string }): string {
  return `${call.toolName ? `${call.toolName} ` : ''}call ${JSON.stringify(call.callId ?? '')}`;
}

/** One line per pending call: which call, where it was asked for and recorded, and what the closer will say. */
export function pendingCallLine(call: PendingCall): string {
  const asked = call.messageSeq !== undefined ? `asked for at seq ${call.messageSeq}` : 'asked for in this turn';
  const recorded = call.callSeq !== undefined ? `started at seq ${call.callSeq} (tool/call)` : 'never recorded as started';
  return `${callName(call)}: ${asked}, ${recorded} → ${call.code} (${closerCodeLabel(call.code)})`;
}

/** One line per closer, linked to what it closes. */
export function closerLine(closer: CloserReview, review: OpenTurnReview): string {
  if (closer.type === 'tool/result') {
    const cites = closer.callSeq !== undefined ? `, citing tool/call seq ${closer.callSeq}` : '';
    return `seq ${closer.seq} tool/result ${closer.code} for ${callName({ callId: closer.callId, toolName: review.pendingCalls.find((c) => c.closerSeq === closer.seq)?.toolName })}${cites}`;
  }
  if (closer.type === 'step/end')
    return `seq ${closer.seq} step/end closing step ${review.openStep ?? '?'}${review.stepStartSeq !== undefined ? ` (opened at seq ${review.stepStartSeq})` : ''}`;
  return `seq ${closer.seq} turn/end ending turn ${review.turn ?? '?'} as interrupted${review.turnStartSeq !== undefined ? ` (opened at seq ${review.turnStartSeq})` : ''}`;
}

/** Whether an open turn looks live or crashed, from how long the file has been still. */
export function activityWords(activity: OpenTurnActivity, msSinceLastChange: number): string {
  const ago = durationWords(msSinceLastChange);
  return activity === 'growing'
    ? `the file changed ${ago} ago: an agent is probably still writing this turn — repairing now would race it`
    : `the file has not changed for ${ago}: this looks like a crash (or an agent waiting a long time on a tool)`;
}

export function durationWords(ms: number): string {
  if (!Number.isFinite(ms)) return 'a long time';
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} min`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} days`;
}

export function bytesWords(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The heading of a torn tail: what it is and how big. */
export function tornTailHeading(tail: TornTail): string {
  const size = bytesWords(tail.droppedBytes);
  if (tail.kind === 'torn-line') return `Torn last line: ${size} at line ${tail.line} with no newline`;
  if (tail.kind === 'torn-frame')
    return `Torn final zstd frame: ${size} of compressed data at byte ${tail.tornFrameStart}${tail.recoveredTextBytes ? `, ${bytesWords(tail.recoveredTextBytes)} of complete lines recovered from it` : ''}`;
  return `Damaged line ${tail.line}: ${size} from it on are not part of the session`;
}

/** Each later line that is not part of the session, and why. */
export function linesBeyondWords(tail: TornTail, max = 20): string[] {
  const beyond = tail.linesBeyond;
  if (!beyond || beyond.count === 0) return [];
  const out = beyond.lines
    .slice(0, max)
    .map(
      (l) =>
        `line ${l.line}: ${l.type}${l.seq !== undefined ? ` seq ${l.seq}` : ''} — after the damaged line ${tail.line}, so dsh does not keep it`,
    );
  if (beyond.count > out.length) out.push(`… and ${beyond.count - out.length} more readable line(s)`);
  return out;
}

/** A repair already in the log, in one line. */
export function repairMadeLine(repair: RepairMade): string {
  const results = repair.results.map(
    (r) => `${r.code} for ${JSON.stringify(r.callId)}${r.callSeq !== undefined ? ` (tool/call seq ${r.callSeq})` : ''}`,
  );
  const seed = repair.endSeedSeq !== undefined ? `, reopened at seq ${repair.endSeedSeq} (session/end-seed)` : '';
  return `turn ${repair.turn ?? '?'} closed by crash repair at seqs ${repair.closerSeqs[0]}–${repair.turnEndSeq}${results.length ? `: ${results.join('; ')}` : ': no pending calls'}${seed}`;
}

/** What a ghost closer row leads to: the call it answers, in a few words. */
export function closerLinkWords(closer: CloserReview): string | undefined {
  if (closer.type !== 'tool/result') return undefined;
  if (closer.callSeq !== undefined) return `answers tool/call seq ${closer.callSeq}`;
  if (closer.messageSeq !== undefined) return `answers the call asked for at seq ${closer.messageSeq} (never started)`;
  return undefined;
}

/** The good prefix a torn tail leaves: how much text and how many events stay. */
export function keptPrefixWords(tail: TornTail, events: number): string {
  const lastLine = tail.line - 1;
  return `kept: ${bytesWords(tail.keptTextBytes)} of text, lines 1–${lastLine} (${events} event${events === 1 ? '' : 's'}); everything from line ${tail.line} on is not part of the session`;
}
