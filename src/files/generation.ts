// Which file of a session folder dsh writes, and whether dsh locks it. A session folder may hold
// several generations of its log side by side (`session.jsonl`, `session.v2.jsonl.zstd`, …); dsh reads
// and appends to the numerically highest canonical one only, so lines appended to an older file would
// never be read. dsh ≥ 0.1.3 (whose logs are generation 1 and up) holds an flock on `session.lock` in
// the folder for as long as it has the session open for writing; dsh 0.1.2 and older (generation 0)
// take no lock at all.

/** dsh's canonical log names: generation 0 has no `.vN`; no leading zeros, `.zstd` for compression. */
const CANONICAL = /^session(?:\.v([1-9][0-9]*))?\.jsonl(?:\.zstd)?$/;

/** The lock file dsh flocks in the session folder. */
export const LOCK_FILE = 'session.lock';

/** The generation a canonical log name says (0 for `session.jsonl`), or undefined for any other name. */
export function generationOf(name: string): number | undefined {
  const match = CANONICAL.exec(name);
  if (!match) return undefined;
  return match[1] === undefined ? 0 : Number(match[1]);
}

/**
 * Why `name` may not be appended to, given the other names in its folder: a canonical log that is
 * not the folder's highest generation. Undefined for the current generation and for other names
 * (a copy under a name of its own is no session folder's log).
 */
export function notCurrentGeneration(name: string, folderNames: readonly string[]): string | undefined {
  const mine = generationOf(name);
  if (mine === undefined) return undefined;
  let highest: string | undefined;
  let highestGeneration = mine;
  for (const other of folderNames) {
    const generation = generationOf(other);
    if (generation !== undefined && generation > highestGeneration) {
      highest = other;
      highestGeneration = generation;
    }
  }
  if (highest === undefined) return undefined;
  return (
    `${name} is generation ${mine} of its session, but its folder also holds ${highest} (generation ${highestGeneration}): ` +
    `dsh reads and appends to the highest generation only, so lines appended to ${name} would never be read; nothing was written. ` +
    `Open ${highest} instead`
  );
}

/**
 * `required`: dsh ≥ 0.1.3 writes this log and locks it, so a write takes dsh's lock. `if-present`: a
 * generation-0 log (written by a dsh that takes no lock) or a file under another name; the lock is
 * taken when the folder has a lock file, and the liveness guard applies.
 */
export function lockPolicy(name: string): 'required' | 'if-present' {
  const generation = generationOf(name);
  return generation !== undefined && generation >= 1 ? 'required' : 'if-present';
}
