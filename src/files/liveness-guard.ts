// Where no dsh lock covers a write (a generation-0 log: dsh 0.1.2 and older take none), the only sign of
// a live agent is a file that still changes: a write of ours to a log that another writer changed
// within STILL_AFTER_MS is refused unless the caller agrees (the CLI's --force, the editor's modal).
import { STILL_AFTER_MS } from '../core';
import type { HandleStat } from './file-access';
import { WriteRefused } from './write-refusal';

export interface LivenessOptions {
  /**
   * When another writer last changed the file, as far as the caller knows (ms since the epoch): the
   * file's mtime when it was read, or the last time an editor folded in someone else's append.
   */
  lastForeignChangeMs?: number;
  /** The log changed within STILL_AFTER_MS and no dsh lock covers the write: write anyway? */
  allowLive?: (msSinceChange: number) => boolean | Promise<boolean>;
}

/**
 * How long ago another writer changed the file: its mtime now, unless that is still the mtime of
 * what the caller has (`knownMtimeMs`, which may be of our own last write), then the caller's figure.
 */
export function msSinceForeignChange(open: HandleStat, knownMtimeMs: number, lastForeignChangeMs: number, now = Date.now()): number {
  return now - (open.mtimeMs !== knownMtimeMs ? open.mtimeMs : lastForeignChangeMs);
}

export const isLive = (msSinceChange: number) => msSinceChange < STILL_AFTER_MS;

export function liveWriterRefusal(path: string, msSinceChange: number): WriteRefused {
  return new WriteRefused(
    `${path} changed ${Math.max(0, Math.round(msSinceChange / 1000))} s ago: an agent may still be writing it, and no dsh lock keeps ` +
      `its next append from racing ours (dsh 0.1.2 and older take none); nothing was written. Write once it has been still for ` +
      `${STILL_AFTER_MS / 1000} s, or confirm that no agent is writing it (--force)`,
    'write.live',
  );
}
