// What the summary says about a log: dsh's verdict in our words (1-based file lines), dsh's own
// message introduced with whose numbering it uses, whether the log is live, and what could still be
// read from a refused log.
import type { SessionLogView, Verdict } from '../core';
import type { Formatter } from './format';
import { oneLine } from './text';

export interface VerdictWords {
  text: string;
  dshText?: string;
}

/** dsh numbers lines of its event stream from 1 after the header; our lines are lines of the file. */
const DSH_LINE = /\bline \d+/;

/** dsh's own message (always English), quoted, saying whose numbers they are when it names a line. */
export function quoteDsh(message: string, fmt: Formatter): string {
  const quoted = oneLine(message, 400);
  return DSH_LINE.test(message)
    ? fmt.t("dsh's own message (dsh counts lines after the header, so its line N is file line N + 1): “{0}”", quoted)
    : fmt.t("dsh's own message: “{0}”", quoted);
}

/** dsh's verdict in a sentence; the stage and the rule are dsh's names, shown as written. */
export function verdictWords(verdict: Verdict, fmt: Formatter): VerdictWords {
  if (verdict.ok) return { text: fmt.t('dsh opens this log.') };
  const where =
    verdict.line !== undefined
      ? verdict.seq !== undefined
        ? fmt.t('line {0} (seq {1})', verdict.line, verdict.seq)
        : fmt.t('line {0}', verdict.line)
      : verdict.seq !== undefined
        ? fmt.t('seq {0}', verdict.seq)
        : fmt.t('the log');
  return {
    text: verdict.rule
      ? fmt.t('dsh refuses this log at the {0} step: {1} breaks {2}.', verdict.stage, where, verdict.rule)
      : fmt.t('dsh refuses this log at the {0} step: {1} is refused.', verdict.stage, where),
    dshText: verdict.dshError ? quoteDsh(verdict.dshError, fmt) : undefined,
  };
}

export type LiveWord = 'live' | 'closed' | 'noTurns' | 'refused' | 'unknown';

/**
 * Live only applies to a log dsh opens: a refused log is neither live nor closed to dsh. "Every turn
 * is closed" needs at least one turn.
 */
export function liveState(view: Pick<SessionLogView, 'verdict' | 'header' | 'eventCount' | 'lastTurnOpen'>, turns: number): LiveWord {
  if (!view.header && view.eventCount === 0) return 'unknown';
  if (!view.verdict.ok) return 'refused';
  if (view.lastTurnOpen) return 'live';
  return turns === 0 ? 'noTurns' : 'closed';
}

/**
 * Whether the view folds what is appended to the file: `following`, `off` (the user turned following
 * off, so appends wait for a reload or for following to be turned on again) or `stopped` (the file
 * was truncated, rewritten or deleted — its own notice explains).
 */
export type FollowWord = 'following' | 'off' | 'stopped';

/** The live state and whether appends are followed, each combination one whole sentence. */
export function liveText(state: LiveWord, follow: FollowWord, fmt: Formatter): string {
  switch (state) {
    case 'live':
      return follow === 'following'
        ? fmt.t('Live — the last turn is still open; following appends')
        : follow === 'off'
          ? fmt.t('Live — the last turn is still open; following appends is turned off')
          : fmt.t('Live — the last turn is still open');
    case 'closed':
      return follow === 'following'
        ? fmt.t('Every turn is closed; following appends')
        : follow === 'off'
          ? fmt.t('Every turn is closed; following appends is turned off')
          : fmt.t('Every turn is closed');
    case 'noTurns':
      return follow === 'following'
        ? fmt.t('No turn yet; following appends')
        : follow === 'off'
          ? fmt.t('No turn yet; following appends is turned off')
          : fmt.t('No turn yet');
    case 'refused':
      return follow === 'following'
        ? fmt.t('Refused by dsh; the file is still followed')
        : follow === 'off'
          ? fmt.t('Refused by dsh; following the file is turned off')
          : fmt.t('Refused by dsh');
    case 'unknown':
      return fmt.t('No readable header');
  }
}

/** For a refused log: what the view still shows. */
export function stillReadable(
  view: Pick<SessionLogView, 'header' | 'eventCount' | 'scan' | 'linesBeyondDamage'>,
  fmt: Formatter,
  textBytes: number,
): string {
  const header = view.header ? fmt.t('the header') : fmt.t('no header');
  const events = fmt.counted(view.eventCount, '{0} event', '{0} events');
  const committed = fmt.bytes(view.scan.committedBytes);
  const whole = fmt.bytes(textBytes);
  const beyond = view.linesBeyondDamage.count;
  if (beyond === 0) return fmt.t('What could still be read: {0}, {1}, {2} of {3}.', header, events, committed, whole);
  return fmt.counted(
    beyond,
    'What could still be read: {1}, {2}, {3} of {4}. After the unreadable line, {0} more line still reads as an event; dsh keeps none of them.',
    'What could still be read: {1}, {2}, {3} of {4}. After the unreadable line, {0} more lines still read as events; dsh keeps none of them.',
    header,
    events,
    committed,
    whole,
  );
}
