// What the provenance pass says about streams, in words: whether a message's text is what its chunks
// stream (checked as each message is observed), and, once the log's end settles it, what the chunks no
// message took are — a failed or retried attempt, one still streaming, or orphans.
import type { Diagnostic, SessionEvent } from '../types';
import type { DiagnosticSink } from '../check/diagnostic-sink';
import { formatSeqRanges } from './seq-ranges';
import type { AttemptEnd, AttemptTracker } from './stream-attempts';
import { compareAssembly, type AssemblyProblem, type StreamAssembly } from './stream-assembly';
import { say, type Said } from '../words';
import { stringText } from '../value-text';

/** A lookup by seq (-1: none). */
export interface SeqLookup {
  get(seq: number): number;
}

/** Where a finding about one event goes (the pass's diagnostic sink). */
export type StreamReport = (
  severity: Diagnostic['severity'],
  rule: string,
  seq: number,
  message: string | Said,
  related?: AssemblyProblem[],
) => void;

/**
 * Whether a message's text is what its chunks stream: a message with content but no chunks, one that does
 * not reassemble from them (with each mismatch), an interrupted one (the delivered prefix of a cancelled
 * stream), and notes on how the stream was written. `by`: whether the message cited its chunks or they
 * were found by its turn and step.
 */
export function checkReassembly(
  report: StreamReport,
  event: SessionEvent,
  chunkCount: number,
  assembly: StreamAssembly | undefined,
  by: 'cited' | 'turn-step',
): void {
  const data = event.data ?? {};
  const content = data.message?.content;
  const interrupted = data.interrupted === true;
  if (chunkCount === 0 || assembly === undefined) {
    // From v2 on a message carries its stream inside it (`data.stream`): no chunk events is how it should be.
    if (Array.isArray(content) && content.length > 0 && !Array.isArray((data as { stream?: unknown }).stream)) {
      report(
        'info',
        'provenance.no-stream',
        event.seq,
        say(
          'assistant/message seq {0} has no stream chunks (none cited, none left in turn {1} step {2})',
          event.seq,
          stringText(data.turn),
          stringText(data.step),
        ),
      );
    }
    return;
  }
  const verdict = compareAssembly(assembly, content, interrupted);
  if (verdict.mismatches.length > 0) {
    const first = verdict.mismatches[0].message;
    const more = verdict.mismatches.length - 1;
    const mismatch =
      by === 'cited'
        ? say('assistant/message seq {0} does not reassemble from its {1} cited chunks: {2}', event.seq, chunkCount, first)
        : say('assistant/message seq {0} does not reassemble from its {1} found by turn/step chunks: {2}', event.seq, chunkCount, first);
    report(
      'warning',
      'provenance.reassembly-mismatch',
      event.seq,
      more > 0 ? say('{0} (+{1} more)', mismatch, more) : mismatch,
      verdict.mismatches,
    );
  }
  if (interrupted) {
    report(
      'info',
      'provenance.interrupted',
      event.seq,
      say('assistant/message seq {0} is interrupted: the delivered prefix of a cancelled stream', event.seq),
      verdict.notes,
    );
  } else if (verdict.notes.length > 0) {
    report(
      'info',
      'provenance.stream-note',
      event.seq,
      verdict.notes.length > 1
        ? say('{0} (+{1} more)', say('assistant/message seq {0}: {1}', event.seq, verdict.notes[0].message), verdict.notes.length - 1)
        : say('assistant/message seq {0}: {1}', event.seq, verdict.notes[0].message),
      verdict.notes,
    );
  }
}

/** Chunks no message took: a failed or retried attempt (info), one still streaming (info), or orphans. */
export function classifyUnclaimed(sink: DiagnosticSink, tracker: AttemptTracker, messageOf: SeqLookup, lastTurnOpen: boolean): void {
  for (let attempt = 0; attempt < tracker.attemptCount; attempt++) {
    const claimed = tracker.claimed(attempt);
    const unclaimed = tracker.chunkCount(attempt) - claimed;
    if (unclaimed === 0) continue;
    const seqs = tracker.chunksOf(attempt).filter((s) => messageOf.get(s) < 0);
    const where = say('turn {0} step {1}', tracker.turn(attempt) ?? '?', tracker.step(attempt) ?? '?');
    const finishKind = tracker.finishKind(attempt);
    const retrySeq = tracker.retrySeq(attempt);
    const failureCode = tracker.failureCode(attempt);
    const list = seqRanges(seqs);
    if (claimed === 0 && (finishKind === 'error' || finishKind === 'aborted')) {
      const retry = retrySeq !== undefined ? say(', retried by seq {0}', retrySeq) : '';
      sink.report(
        'info',
        'provenance.failed-attempt',
        seqs[0],
        say(
          'chunks {0} ({1}) are a failed model attempt (finish {2}{3}{4}); no message comes from them',
          list,
          where,
          finishKind,
          failureCode ? ` ${failureCode}` : '',
          retry,
        ),
      );
    } else if (claimed === 0 && retrySeq !== undefined) {
      sink.report(
        'info',
        'provenance.retried-attempt',
        seqs[0],
        say('chunks {0} ({1}) are an attempt abandoned by llm retry seq {2}', list, where, retrySeq),
      );
    } else if (claimed === 0 && lastTurnOpen && isStreaming(tracker.endedBy(attempt))) {
      sink.report(
        'info',
        'provenance.in-flight',
        seqs[0],
        say('chunks {0} ({1}) are still streaming: the last turn is open and no message has been written yet', list, where),
      );
    } else {
      sink.report(
        'warning',
        'provenance.orphan-chunk',
        seqs[0],
        seqs.length === 1
          ? say('{0} chunk {1} ({2}) belong to no assistant/message', seqs.length, list, where)
          : say('{0} chunks {1} ({2}) belong to no assistant/message', seqs.length, list, where),
        seqs.slice(0, 20).map((seq) => ({ seq, message: say('orphan chunk') })),
      );
    }
  }
}

/** An attempt that nothing has ended yet, or that finished streaming but whose message is not written. */
function isStreaming(endedBy: AttemptEnd | undefined): boolean {
  return endedBy === undefined || endedBy === 'finish';
}

function seqRanges(seqs: readonly number[]): string {
  return seqs.length > 0 ? `seq ${formatSeqRanges(seqs)}` : 'none';
}
