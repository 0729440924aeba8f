// Reads a log file from disk for the CLI: plain or zstd, through the core.
import { readFileSync } from 'node:fs';
import { loadSessionFile, type LoadedFile } from '../core/read/load-file';

export class FileReadError extends Error {}

export function openLog(path: string): LoadedFile {
  let bytes: Uint8Array;
  try {
    // The Buffer itself (a Buffer is a Uint8Array): a copy of a large log costs time and memory, and
    // Buffer's own indexOf finds the line ends several times faster than a plain Uint8Array's.
    bytes = readFileSync(path);
  } catch (error) {
    throw new FileReadError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return loadSessionFile(bytes, { fileName: path });
}
