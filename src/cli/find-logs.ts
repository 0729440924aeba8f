// Which files `check` reads: a FILE argument as given, a DIR argument walked for dsh logs
// (`*.jsonl`, `*.jsonl.zstd`) in a stable order. Symbolic links to directories are not followed, so a
// link cycle cannot make the walk endless; a link to a log file is checked like the file. Names are
// walked as the bytes the file system holds: a name that is not UTF-8 is still read (by its bytes) and
// shown with its odd bytes as `\xNN`.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { normalize } from 'node:path';

/** A path as the file system takes it: text, or the bytes of a name that is not UTF-8. */
export type FsPath = string | Buffer;

export interface LogTarget {
  /** The path as shown (a name that is not UTF-8 with its odd bytes as `\xNN`). */
  path: string;
  /** The path as read. */
  fsPath: FsPath;
  /** Why the path could not be walked (the verdict for it is then "cannot read"). */
  error?: string;
}

const LOG_NAME = /\.jsonl(\.zstd)?$/;

export function isLogName(name: string): boolean {
  return LOG_NAME.test(name);
}

/** The logs named or found under the arguments; `directories` counts the arguments that were folders. */
export function findLogs(paths: readonly string[]): { targets: LogTarget[]; directories: number } {
  const targets: LogTarget[] = [];
  let directories = 0;
  for (const path of paths) {
    let isDirectory = false;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      // Not there or not reachable: reading it as a file reports why, in the file's own verdict.
    }
    if (isDirectory) {
      directories += 1;
      // Normalised as path.join would: the files found read `dir/name`, never `./dir//name`.
      const root = normalize(path);
      walk(Buffer.from(root === '.' ? '' : root), targets);
    } else targets.push({ path, fsPath: path });
  }
  return { targets, directories };
}

function walk(dir: Buffer, into: LogTarget[]): void {
  let entries: Dirent<Buffer>[];
  try {
    entries = readdirSync(dir.length === 0 ? '.' : dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    into.push({
      ...target(dir),
      error: `cannot read directory: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    });
    return;
  }
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  const base = dir.length === 0 || dir.at(-1) === 0x2f ? dir : Buffer.concat([dir, Buffer.from('/')]);
  for (const entry of entries) {
    const path = Buffer.concat([base, entry.name]);
    if (entry.isDirectory()) walk(path, into);
    else if (isLogName(entry.name.toString('latin1')) && (entry.isFile() || (entry.isSymbolicLink() && isRegularFile(path))))
      into.push(target(path));
  }
}

/** A walked path: as text where its bytes are UTF-8, else by its bytes. */
function target(bytes: Buffer): LogTarget {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { path: text, fsPath: text } : { path: shownName(bytes), fsPath: bytes };
}

/** A name's bytes as text: UTF-8 where they are, each other byte as `\xNN`. */
export function shownName(bytes: Buffer): string {
  let out = '';
  let start = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length;) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    out += decoder.decode(bytes.subarray(start, i));
    out += `\\x${bytes[i].toString(16).toUpperCase().padStart(2, '0')}`;
    i += 1;
    start = i;
  }
  return out + decoder.decode(bytes.subarray(start));
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 (the Unicode standard's table of well-formed sequences). */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

function isRegularFile(path: FsPath): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
