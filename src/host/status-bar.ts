// The status bar entry of the focused session editor: dsh's verdict and whether the log is live.
// Clicking it shows the session's health: verdict, live state, counts and its problems (a problem
// picked there is revealed like Next Problem does).
import * as vscode from 'vscode';
import type { SessionSummary } from '../protocol';
import type { ActiveSession } from './active-session';
import { NAVIGATION_COMMANDS } from './navigation';
import type { SessionDocument } from './session-document';
import { hostFormatter } from './words';
import { openTurnActivity } from '../core';

export const SHOW_HEALTH_COMMAND = 'sessionSurface.showSessionHealth';
/** Redraws at most this often while a live log grows. */
const THROTTLE_MS = 400;
/** How often an open last turn is looked at again for having gone still. */
const RECHECK_MS = 20_000;

function verdictText(s: SessionSummary): { icon: string; text: string } {
  if (!s.verdict.ok) return { icon: '$(error)', text: vscode.l10n.t('dsh refuses this log') };
  if (s.counts.errors + s.counts.warnings > 0) return { icon: '$(warning)', text: vscode.l10n.t('dsh opens this log') };
  return { icon: '$(pass)', text: vscode.l10n.t('dsh opens this log') };
}

/** An open last turn in a file nobody writes to any more is a crash, as the editor's banner says. */
function looksCrashed(s: SessionSummary): boolean {
  return s.live === 'live' && openTurnActivity(Date.now() - s.file.mtimeMs) === 'still';
}

function liveText(s: SessionSummary): string | undefined {
  if (s.file.state !== 'following') return vscode.l10n.t('file changed on disk');
  if (looksCrashed(s)) return vscode.l10n.t('looks like a crash');
  if (s.live === 'live') return vscode.l10n.t('live');
  return undefined;
}

function liveIcon(s: SessionSummary): string {
  return looksCrashed(s) ? '$(debug-disconnect)' : s.live === 'live' ? '$(pulse)' : '';
}

export function registerStatusBar(context: vscode.ExtensionContext, active: ActiveSession): void {
  const item = vscode.window.createStatusBarItem('sessionSurface.verdict', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('Session Surface: verdict');
  item.command = SHOW_HEALTH_COMMAND;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;

  const draw = () => {
    timer = undefined;
    last = Date.now();
    const doc = active.current;
    if (!doc) {
      item.hide();
      return;
    }
    const state = doc.currentState;
    if (state.kind === 'loading') {
      item.text = `$(loading~spin) ${vscode.l10n.t('Reading {0}…', doc.fileName)}`;
      item.tooltip = undefined;
      item.backgroundColor = undefined;
    } else if (state.kind === 'failed') {
      item.text = `$(error) ${vscode.l10n.t('Could not read the log')}`;
      item.tooltip = state.message;
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    } else {
      const s = doc.summary();
      if (!s) return item.hide();
      const v = verdictText(s);
      const live = liveText(s);
      item.text = [`${v.icon} ${v.text}`, live && `${liveIcon(s)} ${live}`.trim()].filter(Boolean).join(' · ');
      item.backgroundColor = s.verdict.ok ? undefined : new vscode.ThemeColor('statusBarItem.errorBackground');
      const md = new vscode.MarkdownString();
      md.appendText(s.verdict.ok ? vscode.l10n.t('dsh opens this log.') : vscode.l10n.t('dsh refuses this log: {0}', s.verdict.text));
      md.appendMarkdown('\n\n');
      if (s.upgrade) {
        md.appendText(s.upgrade.text);
        md.appendMarkdown('\n\n');
      }
      md.appendText(countsText(s.counts, true));
      md.appendMarkdown('\n\n');
      md.appendText(vscode.l10n.t('Click for the session health.'));
      item.tooltip = md;
    }
    item.accessibilityInformation = { label: item.text.replace(/\$\([^)]*\)\s*/g, '') };
    item.show();
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(draw, Math.max(0, THROTTLE_MS - (Date.now() - last)));
  };

  // A live log that stops being written turns into a crash without any event: look again now and then.
  const recheck = setInterval(() => {
    if (active.current?.summary()?.live === 'live') schedule();
  }, RECHECK_MS);
  context.subscriptions.push(
    item,
    { dispose: () => clearTimeout(timer) },
    { dispose: () => clearInterval(recheck) },
    active.onDidChange(schedule),
    vscode.commands.registerCommand(SHOW_HEALTH_COMMAND, () => showHealth(active.current)),
  );
  draw();
}

type HealthItem = vscode.QuickPickItem & { seq?: number; line?: number };

/** "36 events, 3 turns" and, with `problems`, ", 1 error, 0 warnings": each count in its own form. */
function countsText(counts: SessionSummary['counts'], problems: boolean): string {
  const fmt = hostFormatter();
  const parts = [fmt.counted(counts.events, '{0} event', '{0} events'), fmt.counted(counts.turns, '{0} turn', '{0} turns')];
  if (problems)
    parts.push(fmt.counted(counts.errors, '{0} error', '{0} errors'), fmt.counted(counts.warnings, '{0} warning', '{0} warnings'));
  return parts.join(vscode.l10n.t(', '));
}

async function showHealth(doc: SessionDocument | undefined): Promise<void> {
  const s = doc?.summary();
  if (!doc || !s) return;
  const items: HealthItem[] = [];
  const v = verdictText(s);
  items.push({
    label: `${v.icon} ${v.text}`,
    detail: s.verdict.ok
      ? undefined
      : `${s.verdict.rule ?? s.verdict.stage}${s.verdict.line ? ` · ${vscode.l10n.t('line {0}', s.verdict.line)}` : ''}: ${s.verdict.text}`,
    line: s.verdict.line,
    seq: s.verdict.seq,
  });
  if (s.upgrade)
    items.push({
      label: `${s.upgrade.ok ? '$(history)' : '$(warning)'} ${s.upgrade.label}`,
      detail: [s.upgrade.text, s.upgrade.dshText].filter(Boolean).join(' '),
      line: s.upgrade.line,
      seq: s.upgrade.line !== undefined ? doc.timeline?.seqOfLine(s.upgrade.line) : undefined,
    });
  const live = liveText(s);
  items.push({
    label: `${liveIcon(s) || '$(check-all)'} ${live ?? s.liveText}`,
    detail: s.file.explanation,
  });
  items.push({
    label: `$(list-ordered) ${countsText(s.counts, false)}`,
  });
  const diagnostics = doc.diagnostics;
  if (diagnostics.length) items.push({ label: vscode.l10n.t('Problems'), kind: vscode.QuickPickItemKind.Separator });
  for (const d of diagnostics.slice(0, 200)) {
    items.push({
      label: `$(${d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info'}) ${d.rule}`,
      description: d.line ? vscode.l10n.t('line {0}', d.line) : undefined,
      detail: d.message,
      seq: d.seq,
      line: d.line,
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Session health: {0}', doc.fileName),
    matchOnDetail: true,
  });
  if (picked?.seq !== undefined) await vscode.commands.executeCommand(NAVIGATION_COMMANDS.goToSeq, picked.seq);
}
