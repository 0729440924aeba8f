// Draws the three states of the session view — loading, failed, loaded — from protocol data.
// Element ids are stable: users' screen readers, the CSS and the end-to-end tests rely on them.
import type {
  DiagnosticView, FileStatus, LoadFailedMessage, LoadingMessage, SessionSnapshot,
} from '../src/protocol/messages';
import { append, fieldList, h } from './dom';
import { bytes, count, epochMs, percent } from './format';

export interface Actions {
  reload(): void;
  revealLine(line: number): void;
}

export function renderLoading(m: LoadingMessage): HTMLElement {
  // A record that progress was drawn, kept after the load ends (a fast load shows it only briefly).
  document.body.dataset.progressDrawn = String(Number(document.body.dataset.progressDrawn ?? '0') + 1);
  const reading = m.phase === 'reading';
  const bar = h('vscode-progress-bar', { id: 'load-progress', 'aria-label': 'Loading the session log', 'data-phase': m.phase });
  if (m.fraction !== undefined) {
    bar.setAttribute('value', String(Math.round(m.fraction * 1000)));
    bar.setAttribute('max', '1000');
  } else {
    bar.setAttribute('indeterminate', '');
  }
  const what = reading
    ? `Reading ${m.fileName} (${bytes(m.totalBytes)})${m.fraction !== undefined ? ` — ${percent(m.fraction)}` : ''}`
    : `Checking ${m.fileName} (${bytes(m.totalBytes)}) against dsh's rules${m.fraction !== undefined ? ` — ${percent(m.fraction)}` : '…'}`;
  return h('section', { id: 'loading', role: 'status', 'aria-live': 'polite' }, h('p', {}, what), bar);
}

export function renderFailed(m: LoadFailedMessage, actions: Actions): HTMLElement {
  return h('section', { id: 'load-failed', role: 'alert', class: 'notice error' },
    h('h2', {}, `Could not open ${m.fileName}`),
    h('p', {}, m.message),
    reloadButton(actions));
}

export function renderSnapshot(s: SessionSnapshot, actions: Actions): HTMLElement {
  return h('div', { id: 'session', 'data-events': s.counts.events },
    title(s),
    statusRow(s),
    fileNotice(s.file, actions),
    verdict(s),
    headerFields(s),
    counts(s),
    diagnostics(s, actions));
}

function title(s: SessionSnapshot): HTMLElement {
  return h('header', { class: 'title' },
    h('h1', {}, 'Session ', h('span', { id: 'session-id' }, s.header?.id ?? '(no readable header)')),
    h('p', { class: 'muted', id: 'file-path' }, s.filePath));
}

function badge(id: string, text: string, kind: 'ok' | 'error' | 'warning' | 'info' | 'live'): HTMLElement {
  return h('span', { id, class: `status ${kind}`, role: 'status' }, text);
}

function statusRow(s: SessionSnapshot): HTMLElement {
  const row = h('div', { class: 'status-row' });
  append(row, [
    s.verdict.ok ? badge('verdict-badge', 'dsh opens this log', 'ok') : badge('verdict-badge', 'dsh refuses this log', 'error'),
    liveBadge(s),
    s.restrictedMode
      ? badge('read-only', 'Restricted Mode: read-only — this workspace is not trusted, so the editor only reads the log', 'warning')
      : badge('read-only', 'Read-only: the editor never writes the log', 'info'),
  ]);
  return row;
}

function liveBadge(s: SessionSnapshot): HTMLElement {
  const followed = s.file.state === 'following';
  if (s.live === 'live') {
    const tail = followed ? 'following appends' : 'not following';
    return badge('live-status', `Live — the last turn is still open; ${tail}`, 'live');
  }
  if (s.live === 'closed') return badge('live-status', followed ? 'Every turn is closed; following appends' : 'Every turn is closed', 'info');
  return badge('live-status', 'No readable header', 'warning');
}

function fileNotice(f: FileStatus, actions: Actions): HTMLElement | undefined {
  if (f.state === 'following') return undefined;
  const heading: Record<Exclude<FileStatus['state'], 'following'>, string> = {
    truncated: 'The file was truncated',
    rewritten: 'The file was rewritten',
    deleted: 'The file was deleted',
    stopped: 'Following the file stopped',
  };
  return h('section', { id: 'file-notice', role: 'alert', class: 'notice warning', 'data-state': f.state },
    h('h2', {}, heading[f.state]),
    h('p', { id: 'file-explanation' }, f.explanation ?? ''),
    f.state === 'deleted' ? undefined : reloadButton(actions));
}

function reloadButton(actions: Actions): HTMLElement {
  const button = h('vscode-button', { id: 'reload' }, 'Reload from disk');
  button.addEventListener('click', () => actions.reload());
  return button;
}

function verdict(s: SessionSnapshot): HTMLElement {
  const v = s.verdict;
  if (v.ok) {
    return h('section', { id: 'verdict', 'data-ok': 'true' },
      h('h2', {}, 'Verdict'),
      h('p', {}, s.lastTurnOpen
        ? `dsh opens this log. Its last turn is open: an agent may still be writing it. If the writer is gone for good, dsh would close the turn with ${count(s.counts.closers)} closer event(s) when it resumes the session (in memory here; nothing is written).`
        : 'dsh opens this log.'));
  }
  return h('section', { id: 'verdict', 'data-ok': 'false', class: 'refused' },
    h('h2', {}, 'dsh refuses this log'),
    v.message ? h('p', { id: 'refusal-message' }, v.message) : undefined,
    fieldList('refusal', [
      ['Rule', v.rule, 'rule'],
      ['Line', v.line !== undefined ? String(v.line) : undefined, 'line'],
      ['Event seq', v.seq !== undefined ? String(v.seq) : undefined, 'seq'],
      ['Stage', v.stage, 'stage'],
      ['Error class', v.errorName, 'errorName'],
    ]),
    h('p', { id: 'still-readable' }, stillReadable(s)));
}

function stillReadable(s: SessionSnapshot): string {
  const parts = [s.header ? 'the header' : 'no header', `${count(s.counts.events)} event(s)`,
    `${bytes(s.counts.committedBytes)} of ${bytes(s.counts.fileBytes)}`];
  const beyond = s.counts.linesBeyondDamage > 0
    ? ` After the damaged line, ${count(s.counts.linesBeyondDamage)} more line(s) still read as events; dsh keeps none of them.`
    : '';
  return `What could still be read: ${parts.join(', ')}. The sections below show it.${beyond}`;
}

function headerFields(s: SessionSnapshot): HTMLElement {
  const hd = s.header;
  if (!hd) return h('section', { id: 'header' }, h('h2', {}, 'Header'), h('p', {}, 'The first line is not a readable session header.'));
  const opt = (v: string | number | undefined) => (v === undefined ? undefined : String(v));
  return h('section', { id: 'header', 'data-accepted': String(s.headerAccepted) }, h('h2', {}, 'Header'),
    s.headerAccepted ? undefined : h('p', { id: 'header-refused', class: 'muted' }, 'As written in line 1. dsh does not accept this line as a session header (see the verdict).'),
    fieldList('header-fields', [
    ['Session id', hd.id, 'id'],
    ['Format version', String(hd.version), 'version'],
    ['Created', epochMs(hd.createdAt), 'createdAt'],
    ['Working directory', hd.cwd, 'cwd'],
    ['Parent session', hd.parentSession, 'parentSession'],
    ['Seed length', opt(hd.seedLength), 'seedLength'],
    ['Origin', hd.origin, 'origin'],
    ['Delegation depth', hd.delegationDepth === undefined ? '(missing)' : String(hd.delegationDepth), 'delegationDepth'],
    ['Agent preset', hd.agentPreset, 'agentPreset'],
  ]));
}

function counts(s: SessionSnapshot): HTMLElement {
  const c = s.counts;
  return h('section', { id: 'counts' }, h('h2', {}, 'Counts'), fieldList('count-fields', [
    ['Events', count(c.events), 'events'],
    ['Turns', count(c.turns), 'turns'],
    ['Packed chunk rows', count(c.packedRows), 'packedRows'],
    ['Closers dsh would add', s.lastTurnOpen ? count(c.closers) : undefined, 'closers'],
    ['File size read', bytes(c.fileBytes), 'fileBytes'],
    ['Committed bytes', c.committedBytes === c.fileBytes ? undefined : bytes(c.committedBytes), 'committedBytes'],
    ['Read in', `${count(s.loadMs)} ms`, 'loadMs'],
    ['Last append folded', s.file.lastAppendAt ? new Date(s.file.lastAppendAt).toLocaleTimeString() : undefined, 'lastAppendAt'],
  ]));
}

function diagnostics(s: SessionSnapshot, actions: Actions): HTMLElement {
  const c = s.counts;
  const total = c.errors + c.warnings + c.infos;
  const section = h('section', { id: 'diagnostics' },
    h('h2', {}, 'Problems ', h('vscode-badge', { variant: 'counter', id: 'problem-count' }, String(total))));
  if (!total) {
    append(section, [h('p', { class: 'muted' }, 'No problems found.')]);
    return section;
  }
  append(section, [h('p', { class: 'muted' }, `${count(c.errors)} error(s), ${count(c.warnings)} warning(s), ${count(c.infos)} info. Activate a row to show its line as text.`)]);
  const list = h('ul', { class: 'diagnostic-list' });
  for (const d of s.diagnostics) append(list, [diagnosticRow(d, actions)]);
  append(section, [list]);
  if (s.diagnosticsTruncated) append(section, [h('p', { class: 'muted' }, `Only the first ${s.diagnostics.length} are listed here; the Problems panel has all of them.`)]);
  return section;
}

function diagnosticRow(d: DiagnosticView, actions: Actions): HTMLElement {
  const where = d.line !== undefined ? `Ln ${d.line}` : 'file';
  const label = `${d.severity} ${where}: ${d.message} [${d.rule}]`;
  const row = h('button', { type: 'button', class: `diagnostic ${d.severity}`, 'data-line': d.line, 'data-rule': d.rule, 'aria-label': label, disabled: d.line === undefined },
    h('span', { class: 'severity' }, d.severity),
    h('span', { class: 'where' }, where),
    h('span', { class: 'message' }, d.message),
    h('code', { class: 'rule' }, d.rule),
    d.refusing ? h('span', { class: 'refusing' }, 'refuses the log') : undefined);
  if (d.line !== undefined) row.addEventListener('click', () => actions.revealLine(d.line!));
  const item = h('li', {}, row);
  if (d.related.length) {
    const rel = h('ul', { class: 'related' });
    for (const r of d.related) {
      const at = r.line !== undefined ? `Ln ${r.line}` : r.seq !== undefined ? `seq ${r.seq}` : '';
      const relRow = h('button', { type: 'button', class: 'related-row', disabled: r.line === undefined }, `${at} ${r.message}`.trim());
      if (r.line !== undefined) relRow.addEventListener('click', () => actions.revealLine(r.line!));
      append(rel, [h('li', {}, relRow)]);
    }
    append(item, [rel]);
  }
  return item;
}
