// Tells a document that its file may have changed. Two sources, because neither is enough alone:
// fs.watch (inotify) reacts within milliseconds but can miss events (editors that replace the file,
// network file systems, a watch limit); a cheap stat poll is the safety net and keeps the promise that
// an appended line shows within 2 s. Calls are coalesced: one check runs at a time, and a change seen
// while it runs schedules exactly one more.
import type * as vscode from 'vscode';
import { hostPlatform } from './platform';
import { followLiveLogs } from './settings';

export const POLL_INTERVAL_MS = 700;
const WATCH_DEBOUNCE_MS = 50;

export class FileFollower implements vscode.Disposable {
  private watcher: { close(): void } | undefined;
  private readonly poll: NodeJS.Timeout;
  private debounce: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private disposed = false;

  /** `check` compares the file with what was loaded; it must not throw. */
  constructor(
    uri: vscode.Uri,
    private readonly check: () => Promise<void>,
  ) {
    const local = uri.scheme === 'file' ? hostPlatform().local : undefined;
    if (local) {
      try {
        const watcher = local.watch(uri.fsPath, () => this.soon());
        watcher.onError(() => this.closeWatcher()); // e.g. the file was deleted: polling goes on
        this.watcher = watcher;
      } catch {
        this.watcher = undefined;
      }
    }
    this.poll = setInterval(() => void this.run(), POLL_INTERVAL_MS);
  }

  /** Check now (used after a reload, and by the watch callback). */
  soon(): void {
    if (this.disposed) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.run(), WATCH_DEBOUNCE_MS);
  }

  private async run(): Promise<void> {
    // With following turned off the file is left alone; turned on again, the next poll catches up.
    if (this.disposed || !followLiveLogs()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        await this.check();
      } while (this.again && !this.disposed);
    } finally {
      this.running = false;
    }
  }

  private closeWatcher(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.poll);
    clearTimeout(this.debounce);
    this.closeWatcher();
  }
}
