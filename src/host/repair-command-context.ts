// What the repair commands share: what they report and the services they use (the target file, an
// asynchronous read, the write prompts, the closing message); their ids are in crash-repair-ids.ts.
import type * as vscode from 'vscode';
import type { ReadLog } from '../files/crash-repair';
import type { WriteLayer } from '../files/write-layer';
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

/** The log a command writes: where it is, what was read of it, and the write layer. */
export interface RepairTarget {
  where: vscode.Uri;
  opened: ReadLog;
  writes: WriteLayer;
  /** The file's name, for the prompts and messages. */
  name: string;
  /** Its path on disk. */
  file: string;
}

export interface RepairCommandContext {
  readonly provider: SessionEditorProvider;
  report(outcome: CrashRepairOutcome): void;
  target(uri?: unknown): vscode.Uri | undefined;
  read(uri: vscode.Uri): Promise<ReadLog | undefined>;
  /** The command's log read for writing, or undefined once the user has been told why not. */
  open(uri?: unknown): Promise<RepairTarget | undefined>;
  guards(name: string): {
    waitForLock: (retry: () => Promise<boolean>) => Promise<boolean>;
    allowUnlocked: (why: string) => Promise<boolean>;
    allowLive: (ms: number) => Promise<boolean>;
  };
  finish(outcome: CrashRepairOutcome, uri: vscode.Uri, reload: boolean): Promise<void>;
}
