// The per-file loop of the commands that show logs (the views, inspect): open each file within the
// read limits and hand it on; a file that cannot be read gets its own line on stderr and the run goes
// on with the next one.
import type { ReadLimits, LoadedFile } from '../core';
import type { CliIo } from './registry';
import { FileReadError, openLog } from './open-log';

/** Shows every file; returns the exit code: 2 when one could not be read, 1 when dsh would refuse one, else 0. */
export function forEachLog(
  files: readonly string[],
  limits: Partial<ReadLimits>,
  io: CliIo,
  show: (file: string, loaded: LoadedFile) => void,
): number {
  let refused = false;
  let unreadable = false;
  for (const file of files) {
    let loaded: LoadedFile;
    try {
      loaded = openLog(file, { limits });
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error;
      unreadable = true;
      io.err(error.message);
      continue;
    }
    if (!loaded.log.verdict.ok) refused = true;
    show(file, loaded);
  }
  return unreadable ? 2 : refused ? 1 : 0;
}
