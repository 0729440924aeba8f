// Numbers, sizes and times for the Sessions view and the status bar, in VS Code's display language.
import * as vscode from 'vscode';
import type { SessionState } from '../../core/internal';

const locale = () => vscode.env.language || 'en';

export function formatCount(n: number): string {
  return new Intl.NumberFormat(locale()).format(n);
}

export function formatSize(bytes: number): string {
  const nf = (digits: number) => new Intl.NumberFormat(locale(), { maximumFractionDigits: digits });
  if (bytes < 1024) return vscode.l10n.t('{0} B', nf(0).format(bytes));
  if (bytes < 1024 * 1024) return vscode.l10n.t('{0} KiB', nf(1).format(bytes / 1024));
  if (bytes < 1024 ** 3) return vscode.l10n.t('{0} MiB', nf(1).format(bytes / 1024 ** 2));
  return vscode.l10n.t('{0} GiB', nf(2).format(bytes / 1024 ** 3));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000_000],
  ['month', 2_592_000_000],
  ['week', 604_800_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

export function formatAgo(ms: number, nowMs = Date.now()): string {
  const diff = ms - nowMs;
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size || unit === 'second') return rtf.format(Math.round(diff / size), unit);
  }
  return rtf.format(0, 'second');
}

export function formatDateTime(ms: number): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

export function stateLabel(state: SessionState): string {
  switch (state) {
    case 'live':
      return vscode.l10n.t('live');
    case 'closed':
      return vscode.l10n.t('closed');
    case 'crashed':
      return vscode.l10n.t('crashed (open turn)');
    case 'refused':
      return vscode.l10n.t('refused by dsh');
    default:
      return vscode.l10n.t('state unknown');
  }
}

/** The state in one short word, for a row of the Sessions view (the tooltip says it in full). */
export function stateWord(state: SessionState): string {
  switch (state) {
    case 'live':
      return vscode.l10n.t('live');
    case 'closed':
      return vscode.l10n.t('closed');
    case 'crashed':
      return vscode.l10n.t('crashed');
    case 'refused':
      return vscode.l10n.t('refused');
    default:
      return vscode.l10n.t('unknown');
  }
}

export function stateIcon(state: SessionState): vscode.ThemeIcon {
  switch (state) {
    case 'live':
      return new vscode.ThemeIcon('pulse', new vscode.ThemeColor('charts.green'));
    case 'closed':
      return new vscode.ThemeIcon('pass');
    case 'crashed':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    case 'refused':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
    default:
      return new vscode.ThemeIcon('question');
  }
}
