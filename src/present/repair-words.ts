// Crash-repair facts in the words people read, shared by the CLI and the editor so both say the same
// thing: what each closer code means, what a closer answers, whether an open turn looks live, what a
// torn tail is, and what a repair already in the log did.
import type { CloserCode, CloserReview, OpenTurnReview, PendingCall, TornTail, RepairMade, OpenTurnActivity } from '../core';
import type { Formatter } from './format';

/** What a closer code tells the model, in plain words. */
export function closerCodeMeaning(code: CloserCode, fmt: Formatter): string {
  return code === 'TOOL_OUTCOME_UNKNOWN'
    ? fmt.t(
        'the call was recorded as started, but its result never was: whether it ran, and what it changed, is unknown. The model is told to repeat it only if it is read-only or idempotent, and otherwise to check first or ask',
      )
    : fmt.t('the call was never recorded as started, so it did not run. The model is told it may call it again if it still needs it');
}

/** A short label for a code: "outcome unknown" / "never started". */
export function closerCodeLabel(code: CloserCode, fmt: Formatter): string {
  return code === 'TOOL_OUTCOME_UNKNOWN' ? fmt.t('outcome unknown') : fmt.t('never started');
}

function callName(call: { callId?: string; toolName?: string }, fmt: Formatter): string {
  const id = JSON.stringify(call.callId ?? '');
  return call.toolName ? fmt.t('{0} call {1}', call.toolName, id) : fmt.t('call {0}', id);
}

/** One line per pending call: which call, where it was asked for and recorded, and what the closer will say. */
export function pendingCallLine(call: PendingCall, fmt: Formatter): string {
  const asked = call.messageSeq !== undefined ? fmt.t('asked for at seq {0}', call.messageSeq) : fmt.t('asked for in this turn');
  const recorded = call.callSeq !== undefined ? fmt.t('started at seq {0} (tool/call)', call.callSeq) : fmt.t('never recorded as started');
  return fmt.t('{0}: {1}, {2} → {3} ({4})', callName(call, fmt), asked, recorded, call.code, closerCodeLabel(call.code, fmt));
}

/** The call a tool/result closer answers, named with its tool when the pending call gives one. */
function closerCall(closer: CloserReview, review: OpenTurnReview, fmt: Formatter): string {
  const toolName = review.pendingCalls.find((c) => c.closerSeq === closer.seq)?.toolName;
  return callName({ callId: closer.callId, toolName }, fmt);
}

/** One line per closer, linked to what it closes. */
export function closerLine(closer: CloserReview, review: OpenTurnReview, fmt: Formatter): string {
  if (closer.type === 'tool/result') {
    const call = closerCall(closer, review, fmt);
    return closer.callSeq !== undefined
      ? fmt.t('seq {0} tool/result {1} for {2}, citing tool/call seq {3}', closer.seq, closer.code ?? '', call, closer.callSeq)
      : fmt.t('seq {0} tool/result {1} for {2}', closer.seq, closer.code ?? '', call);
  }
  if (closer.type === 'step/end')
    return review.stepStartSeq !== undefined
      ? fmt.t('seq {0} step/end closing step {1} (opened at seq {2})', closer.seq, review.openStep ?? '?', review.stepStartSeq)
      : fmt.t('seq {0} step/end closing step {1}', closer.seq, review.openStep ?? '?');
  return review.turnStartSeq !== undefined
    ? fmt.t('seq {0} turn/end ending turn {1} as interrupted (opened at seq {2})', closer.seq, review.turn ?? '?', review.turnStartSeq)
    : fmt.t('seq {0} turn/end ending turn {1} as interrupted', closer.seq, review.turn ?? '?');
}

/**
 * The same closer as a ghost row says it: the row already shows its seq, type and result code, and its
 * link says which call, step or turn it answers, so only what is left is worded.
 */
export function closerRowText(closer: CloserReview, review: OpenTurnReview, fmt: Formatter): string {
  if (closer.type === 'tool/result') return fmt.t('for {0}', closerCall(closer, review, fmt));
  if (closer.type === 'step/end') return fmt.t('closing step {0}', review.openStep ?? '?');
  return fmt.t('ending turn {0} as interrupted', review.turn ?? '?');
}

/** Whether an open turn looks live or crashed, from how long the file has been still. */
export function activityWords(activity: OpenTurnActivity, msSinceLastChange: number, fmt: Formatter): string {
  const ago = durationWords(msSinceLastChange, fmt);
  return activity === 'growing'
    ? fmt.t('the file changed {0} ago: an agent is probably still writing this turn — repairing now would race it', ago)
    : fmt.t('the file has not changed for {0}: this looks like a crash (or an agent waiting a long time on a tool)', ago);
}

export function durationWords(ms: number, fmt: Formatter): string {
  if (!Number.isFinite(ms)) return fmt.t('a long time');
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return fmt.t('{0} s', s);
  const m = Math.round(s / 60);
  if (m < 120) return fmt.t('{0} min', m);
  const h = Math.round(m / 60);
  return h < 48 ? fmt.t('{0} h', h) : fmt.t('{0} days', Math.round(h / 24));
}

/** A size in bytes as the CLI has always written it (no digit grouping): "1 byte", "812 bytes", "4.2 KiB". */
export function bytesWords(n: number, fmt: Formatter): string {
  if (n < 1024) return fmt.plural(n, '{0} byte', '{0} bytes', n);
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The heading of a torn tail: what it is and how big. */
export function tornTailHeading(tail: TornTail, fmt: Formatter): string {
  const size = bytesWords(tail.droppedBytes, fmt);
  if (tail.kind === 'torn-line') return fmt.t('Torn last line: {0} at line {1} with no newline', size, tail.line);
  if (tail.kind === 'torn-frame')
    return tail.recoveredTextBytes
      ? fmt.t(
          'Torn final zstd frame: {0} of compressed data at byte {1}, {2} of complete lines recovered from it',
          size,
          tail.tornFrameStart ?? '?',
          bytesWords(tail.recoveredTextBytes, fmt),
        )
      : fmt.t('Torn final zstd frame: {0} of compressed data at byte {1}', size, tail.tornFrameStart ?? '?');
  return fmt.t('Damaged line {0}: {1} from it on are not part of the session', tail.line, size);
}

/** Each later line that is not part of the session, and why. */
export function linesBeyondWords(tail: TornTail, fmt: Formatter, max = 20): string[] {
  const beyond = tail.linesBeyond;
  if (!beyond || beyond.count === 0) return [];
  const out = beyond.lines
    .slice(0, max)
    .map((l) =>
      l.seq !== undefined
        ? fmt.t('line {0}: {1} seq {2} — after the damaged line {3}, so dsh does not keep it', l.line, l.type, l.seq, tail.line)
        : fmt.t('line {0}: {1} — after the damaged line {2}, so dsh does not keep it', l.line, l.type, tail.line),
    );
  if (beyond.count > out.length) out.push(fmt.t('… and {0} more readable line(s)', beyond.count - out.length));
  return out;
}

/** A repair already in the log, in one line. */
export function repairMadeLine(repair: RepairMade, fmt: Formatter): string {
  const results = repair.results.map((r) =>
    r.callSeq !== undefined
      ? fmt.t('{0} for {1} (tool/call seq {2})', r.code, JSON.stringify(r.callId), r.callSeq)
      : fmt.t('{0} for {1}', r.code, JSON.stringify(r.callId)),
  );
  const turn = repair.turn ?? '?';
  const closed = results.length
    ? fmt.t('turn {0} closed by crash repair at seqs {1}–{2}: {3}', turn, repair.closerSeqs[0], repair.turnEndSeq, results.join('; '))
    : fmt.t('turn {0} closed by crash repair at seqs {1}–{2}: no pending calls', turn, repair.closerSeqs[0], repair.turnEndSeq);
  return repair.endSeedSeq !== undefined ? fmt.t('{0}, reopened at seq {1} (session/end-seed)', closed, repair.endSeedSeq) : closed;
}

/** What a ghost closer row leads to: the call it answers, in a few words. */
export function closerLinkWords(closer: CloserReview, fmt: Formatter): string | undefined {
  if (closer.type !== 'tool/result') return undefined;
  if (closer.callSeq !== undefined) return fmt.t('answers tool/call seq {0}', closer.callSeq);
  if (closer.messageSeq !== undefined) return fmt.t('answers the call asked for at seq {0} (never started)', closer.messageSeq);
  return undefined;
}

/** The good prefix a torn tail leaves: how much text and how many events stay. */
export function keptPrefixWords(tail: TornTail, events: number, fmt: Formatter): string {
  return fmt.plural(
    events,
    'kept: {0} of text, lines 1–{1} ({2} event); everything from line {3} on is not part of the session',
    'kept: {0} of text, lines 1–{1} ({2} events); everything from line {3} on is not part of the session',
    bytesWords(tail.keptTextBytes, fmt),
    tail.line - 1,
    events,
    tail.line,
  );
}
