// The identity of the bytes a document has loaded, and how to tell what happened to the file since.
// An append-only log may only grow: if the loaded prefix is no longer the start of the file, the view
// is stale and must say so instead of folding bytes that do not continue what it has. Pure logic, no
// vscode, so it is unit-testable.
import { sameBytes } from './file-access';

/** How many bytes at each end of the loaded prefix are compared to detect a rewrite. */
export const EDGE_BYTES = 4096;

export interface LoadedIdentity {
  /** Bytes of the file that were read (the loaded prefix). */
  size: number;
  mtimeMs: number;
  /** The first and the last EDGE_BYTES of the loaded prefix (they overlap for small files). */
  head: Uint8Array;
  tail: Uint8Array;
  /** The file's device and inode when it was read ("dev:ino"), where the file system has them. */
  id?: string;
}

export function identityOf(bytes: Uint8Array, mtimeMs: number, id?: string): LoadedIdentity {
  return {
    size: bytes.length,
    mtimeMs,
    head: bytes.slice(0, EDGE_BYTES),
    tail: bytes.slice(Math.max(0, bytes.length - EDGE_BYTES)),
    ...(id !== undefined ? { id } : {}),
  };
}

/** Identity after `appended` bytes were folded onto a prefix with identity `prev`. */
export function extendIdentity(prev: LoadedIdentity, appended: Uint8Array, mtimeMs: number): LoadedIdentity {
  const size = prev.size + appended.length;
  let tail: Uint8Array;
  if (appended.length >= EDGE_BYTES) {
    tail = appended.slice(appended.length - EDGE_BYTES);
  } else {
    const keep = Math.min(prev.tail.length, EDGE_BYTES - appended.length);
    tail = new Uint8Array(keep + appended.length);
    tail.set(prev.tail.subarray(prev.tail.length - keep), 0);
    tail.set(appended, keep);
  }
  const head = prev.head.length >= EDGE_BYTES ? prev.head : concatPrefix(prev.head, appended);
  return { size, mtimeMs, head, tail, ...(prev.id !== undefined ? { id: prev.id } : {}) };
}

function concatPrefix(head: Uint8Array, appended: Uint8Array): Uint8Array {
  const len = Math.min(EDGE_BYTES, head.length + appended.length);
  const out = new Uint8Array(len);
  out.set(head, 0);
  out.set(appended.subarray(0, len - head.length), head.length);
  return out;
}

export type FileChange =
  | { kind: 'unchanged' }
  | { kind: 'appended'; from: number; to: number }
  | { kind: 'truncated'; explanation: string }
  | { kind: 'rewritten'; explanation: string }
  | { kind: 'deleted'; explanation: string };

export interface CurrentFile {
  /** undefined: the file is gone. */
  stat: { size: number; mtimeMs: number } | undefined;
  /** Reads bytes [start, end) of the file as it is now. */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** Compares the file now with what was loaded. Reads at most 2 × EDGE_BYTES of the prefix. */
export async function classifyChange(loaded: LoadedIdentity, now: CurrentFile): Promise<FileChange> {
  const { stat } = now;
  if (!stat) {
    return { kind: 'deleted', explanation: 'It was deleted or moved. The editor still shows what it had read.' };
  }
  if (stat.size < loaded.size) {
    return {
      kind: 'truncated',
      explanation:
        `It now has ${stat.size} bytes, fewer than the ${loaded.size} bytes already read. ` +
        'A session log only grows, so something other than the agent changed it. Nothing was written by this editor.',
    };
  }
  if (stat.size === loaded.size && stat.mtimeMs === loaded.mtimeMs) return { kind: 'unchanged' };

  const head = await now.read(0, loaded.head.length);
  const tail = await now.read(loaded.size - loaded.tail.length, loaded.size);
  if (!sameBytes(head, loaded.head) || !sameBytes(tail, loaded.tail)) {
    return {
      kind: 'rewritten',
      explanation:
        'Bytes already read have changed, so the file was not appended to. ' +
        'The editor still shows the old content. Nothing was written by this editor.',
    };
  }
  if (stat.size === loaded.size) return { kind: 'unchanged' };
  return { kind: 'appended', from: loaded.size, to: stat.size };
}
