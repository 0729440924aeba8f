// Which generation a file is read as. dsh decides by the file's name when it names one, else by the
// header: a v0 file is read by this core's tuned v0 reader (as dsh 0.1.x reads it), a later generation
// by dsh's format layer (generation-reading.ts).
import { parseGenerationFileName } from '../format/filename';

/** The generations a file's name names: any it names, and the one dsh itself reads by that exact name. */
export interface NamedGeneration {
  /** The generation the file's name names, if it names one. */
  nameVersion: number | undefined;
  /** The generation the file's name names when it is a name dsh itself reads (`session.v4.jsonl`). */
  canonicalNameVersion: number | undefined;
}

/** What a file name says of its generation; nothing without a name (the header alone tells then). */
export function namedGeneration(fileName: string | undefined): NamedGeneration {
  if (fileName === undefined) return { nameVersion: undefined, canonicalNameVersion: undefined };
  const name = baseName(fileName);
  return { nameVersion: generationOfName(name), canonicalNameVersion: parseGenerationFileName(name)?.version };
}

/**
 * The later generation (1 and on) a file is read as, by dsh's format layer; undefined for a v0 file,
 * read as dsh 0.1.x reads it. A name that names a generation decides (`session.jsonl` is v0 whatever
 * its header says, as it was for the dsh that read it; `session.v4.jsonl` is v4, its header decoded by
 * the codec of the version it names); any other name leaves it to the header.
 */
export function generationToRead(raw: unknown, nameVersion: number | undefined): number | undefined {
  if (nameVersion !== undefined) return nameVersion > 0 ? nameVersion : undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const version = (raw as { version?: unknown }).version;
  return typeof version === 'number' && Number.isSafeInteger(version) && version > 0 ? version : undefined;
}

/**
 * The generation a file name names: a canonical name (`session.v3.jsonl.zstd`), or one that ends in a
 * canonical name after a dot (`compaction.session.v3.jsonl`, as copies and corpora name them).
 */
function generationOfName(name: string): number | undefined {
  const canonical = parseGenerationFileName(name);
  if (canonical) return canonical.version;
  const at = name.lastIndexOf('.session.');
  return at >= 0 ? parseGenerationFileName(name.slice(at + 1))?.version : undefined;
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
