// The names of a session's log generations inside its folder, as dsh names and picks them:
// `session.jsonl` (v0), `session.vN.jsonl` (N >= 1), `.zstd` appended for compressed logs. Only the
// canonical spelling counts (no `.v0`, no leading zeros, lowercase); dsh reads the numerically
// highest canonical generation and never falls back to an older one when that one is refused.
import { formatVersion } from './json';

const CANONICAL_LOG_NAME = /^session(?:\.v([1-9][0-9]*))?\.jsonl$/u;
const ZSTD_SUFFIX = '.zstd';

/** The canonical basename of generation `version`, without or with the zstd suffix. */
export function generationFileName(version: number, compressed = false): string {
  const generation = formatVersion(version, 'Session log generation version');
  return `${generation === 0 ? 'session.jsonl' : `session.v${generation}.jsonl`}${compressed ? ZSTD_SUFFIX : ''}`;
}

/** What a canonical basename says: its generation and whether it is the zstd encoding. */
export interface GenerationName {
  version: number;
  compressed: boolean;
}

/**
 * The generation a basename names, or undefined when it is not a canonical log name (temporary
 * names, `.v0`, leading zeros, uppercase, other suffixes).
 */
export function parseGenerationFileName(basename: string): GenerationName | undefined {
  const compressed = basename.endsWith(ZSTD_SUFFIX);
  const match = CANONICAL_LOG_NAME.exec(compressed ? basename.slice(0, -ZSTD_SUFFIX.length) : basename);
  if (match === null) return undefined;
  if (match[1] === undefined) return { version: 0, compressed };
  const version = Number(match[1]);
  return Number.isSafeInteger(version) ? { version, compressed } : undefined;
}

/** One canonical log among the names of a session folder. */
export interface GenerationEntry extends GenerationName {
  name: string;
}

/**
 * The current generation among the names of one session folder: the numerically highest canonical
 * name (dsh never falls back to an older one). When both encodings of that generation are present the
 * folder is ambiguous (dsh refuses a root holding both suffixes); `conflict` then names the other.
 */
export function currentGeneration(names: Iterable<string>): { current: GenerationEntry; conflict?: GenerationEntry } | undefined {
  let best: GenerationEntry | undefined;
  let conflict: GenerationEntry | undefined;
  for (const name of names) {
    const parsed = parseGenerationFileName(name);
    if (!parsed) continue;
    const entry = { name, ...parsed };
    if (!best || entry.version > best.version) {
      best = entry;
      conflict = undefined;
    } else if (entry.version === best.version) {
      // Keep the plain name as current and the other encoding as the conflict, whatever the listing order.
      if (entry.compressed === false) [best, conflict] = [entry, best];
      else conflict = entry;
    }
  }
  if (!best) return undefined;
  return conflict ? { current: best, conflict } : { current: best };
}

/** Every canonical generation among the names, oldest first. */
export function listGenerations(names: Iterable<string>): GenerationEntry[] {
  const entries: GenerationEntry[] = [];
  for (const name of names) {
    const parsed = parseGenerationFileName(name);
    if (parsed) entries.push({ name, ...parsed });
  }
  return entries.sort((a, b) => a.version - b.version || Number(a.compressed) - Number(b.compressed));
}
