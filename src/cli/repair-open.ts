// A log read for a repair action: its bytes and the core's view, the file's mtime and inode when read,
// and how long ago it last changed.
import { statSync } from 'node:fs';
import { type ReadLimits, loadSessionFile } from '../core';
import type { ReadLog } from '../files/crash-repair';
import { FileReadError, readLogBytes } from './open-log';

/** A log read for a repair action, and how long ago it last changed. */
export interface Opened extends ReadLog {
  file: string;
  msSinceChange: number;
}

export function open(file: string, limits: Partial<ReadLimits>): Opened {
  // A plain Uint8Array view: Buffer's slice shares memory where the planners expect a copy.
  const read = readLogBytes(file, limits);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.length);
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    throw new FileReadError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const loaded = loadSessionFile(bytes, { fileName: file, limits });
  return {
    file,
    path: file,
    bytes,
    loaded,
    mtimeMs: stat.mtimeMs,
    id: `${stat.dev}:${stat.ino}`,
    msSinceChange: Date.now() - stat.mtimeMs,
  };
}
