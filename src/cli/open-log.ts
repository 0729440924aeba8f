// Reads a log file from disk for the CLI: plain or zstd, through the core. Only regular files are read
// (a FIFO or a device would block or never end), and never more than the read limits allow.
import { closeSync, fstatSync, openSync, readSync, constants as fsConstants } from 'node:fs';
import { type ReadLimits, DEFAULT_READ_LIMITS, type LoadedFile } from '../core';
import { loadSessionFileFrom } from '../core/internal';
import { zlibZstd } from '../node/zlib-zstd';
import { bufferUtf8Slicer } from '../node/buffer-utf8';
import type { FsPath } from './find-logs';

/** A file that cannot be read as a log: the message names the file and why. Each file gets its own. */
export class FileReadError extends Error {}

export interface OpenOptions {
  limits?: Partial<ReadLimits>;
  /** The path as the file system takes it, when it differs from the shown `path` (a name that is not UTF-8). */
  fsPath?: FsPath;
  /** False for a caller that reports problems only (see LoadOptions.provenanceEdges). */
  provenanceEdges?: boolean;
}

/**
 * The file's bytes, refusing what is not a regular file and what is larger than the text limit. `path`
 * names the file in messages; `fsPath` (default `path`) is what is opened.
 */
export function readLogBytes(path: string, limits: Partial<ReadLimits> = {}, fsPath: FsPath = path): Uint8Array {
  const maxBytes = limits.maxTextBytes ?? DEFAULT_READ_LIMITS.maxTextBytes;
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer must not hang before the type check below.
    fd = openSync(fsPath, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new FileReadError(`${path}: cannot read: ${describe(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new FileReadError(`${path}: cannot read: a directory, not a log file`);
    if (!stat.isFile()) throw new FileReadError(`${path}: cannot read: not a regular file (${kindOf(stat)}); only log files are read`);
    if (stat.size > maxBytes)
      throw new FileReadError(
        `${path}: cannot read: ${stat.size} bytes, more than the text limit of ${maxBytes} bytes (limits.text-bytes, maxTextBytes)`,
      );
    // A Buffer (a Buffer is a Uint8Array): its own indexOf finds the line ends several times faster.
    const bytes = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, null);
      if (n === 0) break; // the file shrank while we read it: what was there
      filled += n;
    }
    return filled === bytes.length ? bytes : bytes.subarray(0, filled);
  } catch (error) {
    if (error instanceof FileReadError) throw error;
    throw new FileReadError(`${path}: cannot read: ${describe(error)}`);
  } finally {
    closeSync(fd);
  }
}

export function openLog(path: string, options: OpenOptions = {}): LoadedFile {
  let file: ArrayBufferLike | undefined;
  const source = {
    read: () => {
      const bytes = readLogBytes(path, options.limits, options.fsPath);
      // Only a buffer of its own: a small file's bytes may share Node's Buffer pool with others.
      if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) file = bytes.buffer;
      return bytes;
    },
    // A zstd file's compressed bytes, once decoded: freed now rather than held while the text is read.
    release: () => {
      if (file) discard(file);
      file = undefined;
    },
    // Its text in a Buffer, as a plain file's is: a Buffer's indexOf finds the line ends faster.
    allocate: (length: number) => Buffer.allocUnsafe(length),
  };
  return loadSessionFileFrom(source, {
    fileName: path,
    zstdCodec: zlibZstd(),
    utf8Slicer: bufferUtf8Slicer(),
    limits: options.limits,
    provenanceEdges: options.provenanceEdges,
  });
}

/**
 * Lets go of a buffer's memory now, not at the next full collection (the file's buffer has usually
 * been promoted by then, and the compressed file would stay next to its text for the whole load). The
 * buffer is detached: its memory moves to a new buffer that nothing references, which the next young
 * collection frees (Node 20 has no ArrayBuffer.prototype.transfer, which would free it at once).
 */
function discard(buffer: ArrayBufferLike): void {
  try {
    const transfer = (buffer as { transfer?: (length: number) => ArrayBuffer }).transfer;
    if (typeof transfer === 'function') transfer.call(buffer, 0);
    else structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
  } catch {
    // not transferable (a pooled Buffer): the collector frees it in its time
  }
}

function kindOf(stat: import('node:fs').Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ?? (e instanceof Error ? e.message : String(error));
}
