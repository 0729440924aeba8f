// What the summary says about a log: dsh's verdict in our words (1-based file lines), dsh's own
// message introduced with whose numbering it uses, whether the log is live, and what could still be
// read from a refused log.
import type { SessionLogView } from '../core/api';
import type { Verdict } from '../core/types';
import type { Formatter } from './format';
import { oneLine } from './text';

export interface VerdictWords {
  text: string;
  dshText?: string;
}

/** dsh numbers lines of its event stream from 1 after the header; our lines are lines of the file. */
const DSH_LINE = /\bline \d+/;

/** dsh's own message, quoted, saying whose numbers they are when it names a line. */
export function quoteDsh(message: string): string {
  const quoted = `“${oneLine(message, 400)}”`;
  return DSH_LINE.test(message)
    ? `dsh's own message (dsh counts lines after the header, so its line N is file line N + 1): ${quoted}`
    : `dsh's own message: ${quoted}`;
}

export function verdictWords(verdict: Verdict): VerdictWords {
  if (verdict.ok) return { text: 'dsh opens this log.' };
  const where =
    verdict.line !== undefined
      ? `line ${verdict.line}${verdict.seq !== undefined ? ` (seq ${verdict.seq})` : ''}`
      : verdict.seq !== undefined
        ? `seq ${verdict.seq}`
        : 'the log';
  const rule = verdict.rule ? ` breaks ${verdict.rule}` : ' is refused';
  return {
    text: `dsh refuses this log at the ${verdict.stage} step: ${where}${rule}.`,
    dshText: verdict.dshError ? quoteDsh(verdict.dshError) : undefined,
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

export function liveText(state: LiveWord, follow: FollowWord): string {
  const tail = follow === 'following' ? '; following appends' : follow === 'off' ? '; following appends is turned off' : '';
  switch (state) {
    case 'live':
      return `Live — the last turn is still open${tail}`;
    case 'closed':
      return `Every turn is closed${tail}`;
    case 'noTurns':
      return `No turn yet${tail}`;
    case 'refused':
      return follow === 'following'
        ? 'Refused by dsh; the file is still followed'
        : follow === 'off'
          ? 'Refused by dsh; following the file is turned off'
          : 'Refused by dsh';
    case 'unknown':
      return 'No readable header';
  }
}

/** For a refused log: what the view still shows. */
export function stillReadable(
  view: Pick<SessionLogView, 'header' | 'eventCount' | 'scan' | 'linesBeyondDamage'>,
  fmt: Formatter,
  textBytes: number,
): string {
  const parts = [
    view.header ? 'the header' : 'no header',
    fmt.counted(view.eventCount, 'event'),
    `${fmt.bytes(view.scan.committedBytes)} of ${fmt.bytes(textBytes)}`,
  ];
  const beyond =
    view.linesBeyondDamage.count > 0
      ? ` After the unreadable line, ${fmt.counted(view.linesBeyondDamage.count, 'more line')} still read as events; dsh keeps none of them.`
      : '';
  return `What could still be read: ${parts.join(', ')}.${beyond}`;
}
