// The extension's settings (contributes.configuration in package.json), read in one place.
import * as vscode from 'vscode';
import type { ReadLimits, Severity } from '../core';

export const SECTION = 'sessionSurface';

export const SETTING = {
  sessionsFolder: 'sessionsFolder',
  openLogsInSessionEditor: 'openLogsInSessionEditor',
  problemsSeverity: 'problems.minimumSeverity',
  followLiveLogs: 'followLiveLogs',
  maxLineBytes: 'limits.maxLineBytes',
  maxTextBytes: 'limits.maxTextBytes',
} as const;

const config = () => vscode.workspace.getConfiguration(SECTION);

export function affects(e: vscode.ConfigurationChangeEvent, key: keyof typeof SETTING): boolean {
  return e.affectsConfiguration(`${SECTION}.${SETTING[key]}`);
}

/** The sessions folder as the user wrote it ('' = dsh's default). */
export function sessionsFolderSetting(): string {
  return (config().get<string>(SETTING.sessionsFolder) ?? '').trim();
}

export type ProblemsThreshold = Severity | 'none';
const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Which core diagnostics go to the Problems panel. */
export function problemsThreshold(): ProblemsThreshold {
  const v = config().get<string>(SETTING.problemsSeverity);
  return v === 'error' || v === 'warning' || v === 'none' ? v : 'info';
}

export function passesThreshold(severity: Severity, threshold: ProblemsThreshold): boolean {
  return threshold !== 'none' && RANK[severity] <= RANK[threshold];
}

export function followLiveLogs(): boolean {
  return config().get<boolean>(SETTING.followLiveLogs) !== false;
}

/** Read limits for the core; a missing or non-positive value keeps the core's default. */
export function readLimits(): Partial<ReadLimits> {
  const limits: Partial<ReadLimits> = {};
  const line = config().get<number>(SETTING.maxLineBytes);
  const text = config().get<number>(SETTING.maxTextBytes);
  if (typeof line === 'number' && line > 0) limits.maxLineBytes = Math.floor(line);
  if (typeof text === 'number' && text > 0) limits.maxTextBytes = Math.floor(text);
  return limits;
}
