// Reads a log file from disk for the CLI: plain or zstd, through the core.
import { readFileSync } from 'node:fs';
import { loadSessionFile, type LoadedFile } from '../core/read/load-file';

export class FileReadError extends Error {}

export function openLog(path: string): LoadedFile {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (error) {
    throw new FileReadError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return loadSessionFile(bytes, { fileName: path });
}
