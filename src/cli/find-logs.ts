// Which files `check` reads: a FILE argument as given, a DIR argument walked for dsh logs
// (`*.jsonl`, `*.jsonl.zstd`) in a stable order. Symbolic links to directories are not followed, so a
// link cycle cannot make the walk endless; a link to a log file is checked like the file.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

export interface LogTarget {
  path: string;
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
      walk(path, targets);
    } else targets.push({ path });
  }
  return { targets, directories };
}

function walk(dir: string, into: LogTarget[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    into.push({ path: dir, error: `cannot read directory: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, into);
    else if (isLogName(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && isRegularFile(path)))) into.push({ path });
  }
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
