// What the repair commands share: what they report and the services they use (the target file, an
// asynchronous read, the write prompts, the closing message); their ids are in crash-repair-ids.ts.
import type * as vscode from 'vscode';
import type { ReadLog } from '../files/crash-repair';
import type { SessionEditorProvider } from './session-editor-provider';

export { CRASH_REPAIR_COMMANDS } from './crash-repair-ids';

/** What a command last did, for the in-host tests and the end-to-end tests' log. */
export interface CrashRepairOutcome {
  command: 'apply' | 'removeTornTail' | 'closeCompaction';
  file: string;
  done: boolean;
  message: string;
  backupPath?: string;
}

export interface RepairCommandContext {
  readonly provider: SessionEditorProvider;
  report(outcome: CrashRepairOutcome): void;
  target(uri?: unknown): vscode.Uri | undefined;
  read(uri: vscode.Uri): Promise<ReadLog | undefined>;
  guards(name: string): {
    waitForLock: (retry: () => Promise<boolean>) => Promise<boolean>;
    allowUnlocked: (why: string) => Promise<boolean>;
    allowLive: (ms: number) => Promise<boolean>;
  };
  finish(outcome: CrashRepairOutcome, uri: vscode.Uri, reload: boolean): Promise<void>;
}
