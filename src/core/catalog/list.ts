// Lists the sessions under a dsh sessions root without blocking: folders are walked and logs are read
// (their two ends only) a few at a time, and listed entries are handed over in batches as they come, so
// a view can draw the first sessions of a large folder while the rest are still being read. The file
// system is handed in (Node's fs for the CLI and benchmarks, vscode.workspace.fs in the editor).
import type { SessionHeader } from '../types';
import { decodeZstdLog, isZstd } from '../zstd';
import { lastFrameStart, streamedTail, tailFrameStarts } from '../zstd/tail-frames';
import { listGenerations } from '../format/filename';
import { say } from '../words';
import {
  HEAD_BYTES,
  TAIL_BYTES,
  readSessionEnds,
  sessionState,
  type EndsRefusal,
  type SessionEnds,
  type SessionState,
} from './session-ends';

/** A zstd log this small is decoded whole (its end cannot be found without walking every frame). */
export const WHOLE_ZSTD_BYTES = 4 * 1024 * 1024;
/** Bytes of a larger zstd log's start decoded for its header and title. */
const ZSTD_HEAD_BYTES = 256 * 1024;
/** The first window of a larger zstd log's end searched for its last frames (grown while no frame fits). */
const ZSTD_TAIL_BYTES = 1024 * 1024;
const ZSTD_TAIL_MAX_BYTES = 16 * 1024 * 1024;
/** A zstd log whose last frame is longer than the tail window is streamed through up to this size. */
const ZSTD_STREAM_MAX_BYTES = 512 * 1024 * 1024;

export interface CatalogFs<P> {
  /** Entries of a folder; [] when it does not exist. */
  list(dir: P): Promise<{ name: string; isDirectory: boolean }[]>;
  stat(file: P): Promise<{ size: number; mtimeMs: number } | undefined>;
  /** Bytes [start, end) of a file (fewer when it is shorter). */
  read(file: P, start: number, end: number): Promise<Uint8Array>;
  child(dir: P, name: string): P;
}

export interface SessionEntry<P> {
  file: P;
  /** Folder names under the root: `--<cwd slug>--` and the encoded session id. */
  projectDir: string;
  sessionDir: string;
  fileName: string;
  /** The id from the header, or the session folder name when the header cannot be read. */
  id: string;
  header?: SessionHeader;
  title?: string;
  turns?: number;
  events?: number;
  size: number;
  mtimeMs: number;
  compressed: boolean;
  state: SessionState;
  refusal?: EndsRefusal;
  /** Other transcript generations in the same folder (`session.jsonl` next to `session.v4.jsonl.zstd`), newest first. */
  otherGenerations: string[];
  /** The generation the current file's name says (0 for `session.jsonl`); undefined for another name. */
  generation?: number;
}

export interface ListOptions<P> {
  /** Called with each batch of entries as they are read. */
  onBatch?: (entries: SessionEntry<P>[]) => void;
  /** Logs read at the same time. */
  concurrency?: number;
  batchSize?: number;
  /** Only these project folders (e.g. the workspace folder's). */
  projectDirs?: readonly string[];
  nowMs?: number;
  isCancelled?: () => boolean;
}

/** Runs `work` over `items` with at most `limit` running at once. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>, isCancelled: () => boolean): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !isCancelled()) await work(items[next++]);
  });
  await Promise.all(runners);
}

/**
 * The text of a large zstd log's last frames: the end of the file is read and searched for the frame
 * starts from which whole frames run to the end (frames start at line starts in dsh's logs), so the
 * listing's turns and state come from the log's real end without decompressing all of it. A last frame
 * longer than the window (a log dsh migrated holds all its events in one frame) is decoded as a
 * stream and only its end kept: slower, but the state it gives is the log's, not its first frame's.
 */
async function zstdTailText<P>(fs: CatalogFs<P>, file: P, size: number): Promise<{ text: Uint8Array; startsAtLine: boolean } | undefined> {
  for (let windowBytes = ZSTD_TAIL_BYTES; ; windowBytes *= 4) {
    const from = Math.max(ZSTD_HEAD_BYTES, size - windowBytes);
    const window = await fs.read(file, from, size);
    for (const start of tailFrameStarts(window)) {
      const decoded = decodeZstdLog(window.subarray(start), { expectHeaderFrame: false, limits: { maxTextBytes: 64 * 1024 * 1024 } });
      if (!decoded.error && decoded.text.length > 0) return { text: decoded.text, startsAtLine: true };
    }
    if (from === ZSTD_HEAD_BYTES || windowBytes >= ZSTD_TAIL_MAX_BYTES) break;
  }
  if (size > ZSTD_STREAM_MAX_BYTES) return undefined;
  const whole = await fs.read(file, 0, size);
  const start = lastFrameStart(whole);
  if (start <= 0) return undefined;
  const tail = await streamedTail(whole, start, TAIL_BYTES, () => new Promise((resolve) => setTimeout(resolve, 0)));
  return tail.text.length > 0 ? tail : undefined;
}

/** Reads the ends of one log (plain or zstd, told apart by content). */
export async function readEnds<P>(
  fs: CatalogFs<P>,
  file: P,
  size: number,
  /** The generation the file's name names (a `session.jsonl` is read as v0 whatever its header says). */
  nameVersion?: number,
): Promise<{ ends: SessionEnds; compressed: boolean }> {
  const head = await fs.read(file, 0, Math.min(size, Math.max(HEAD_BYTES, 4)));
  if (isZstd(head)) {
    const whole = size <= WHOLE_ZSTD_BYTES;
    const bytes = whole
      ? size <= head.length
        ? head
        : await fs.read(file, 0, size)
      : await fs.read(file, 0, Math.min(size, ZSTD_HEAD_BYTES));
    const decoded = decodeZstdLog(bytes);
    const text = decoded.text;
    if (whole) {
      const tailStart = Math.max(0, text.length - TAIL_BYTES);
      const headIsWhole = text.length <= HEAD_BYTES;
      return {
        compressed: true,
        ends: readSessionEnds({
          nameVersion,
          head: text.subarray(0, HEAD_BYTES),
          headIsWhole,
          tail: text.subarray(tailStart),
          tailStartsAtLine: tailStart === 0 || text[tailStart - 1] === 0x0a,
        }),
      };
    }
    const tail = await zstdTailText(fs, file, size);
    return {
      compressed: true,
      ends: readSessionEnds({
        nameVersion,
        head: text,
        headIsWhole: false,
        ...(tail ? { tail: tail.text, tailStartsAtLine: tail.startsAtLine } : {}),
      }),
    };
  }
  if (size <= head.length) return { compressed: false, ends: readSessionEnds({ nameVersion, head, headIsWhole: true }) };
  const tailStart = Math.max(head.length, size - TAIL_BYTES);
  // A tail window that starts right after the head starts at a line boundary only by chance:
  // read one byte more before it so the first line can be judged complete or not.
  const from = tailStart - 1;
  const tailWithPrev = await fs.read(file, from, size);
  const startsAtLine = tailWithPrev[0] === 0x0a;
  const tail = tailWithPrev.subarray(1);
  return { compressed: false, ends: readSessionEnds({ nameVersion, head, headIsWhole: false, tail, tailStartsAtLine: startsAtLine }) };
}

async function readEntry<P>(
  fs: CatalogFs<P>,
  projectDir: string,
  sessionDir: string,
  dir: P,
  nowMs: number,
): Promise<SessionEntry<P> | undefined> {
  // dsh's canonical names only, newest first: the highest generation is the one dsh reads; older
  // ones stay next to it, untouched (of one generation, the plain encoding is listed first).
  const generations = listGenerations((await fs.list(dir)).filter((e) => !e.isDirectory).map((e) => e.name)).reverse();
  if (generations.length === 0) return undefined;
  const names = generations.map((g) => g.name);
  const fileName = names[0];
  const file = fs.child(dir, fileName);
  const stat = await fs.stat(file);
  if (!stat) return undefined;
  let ends: SessionEnds;
  let compressed = fileName.endsWith('.zstd');
  try {
    ({ ends, compressed } = await readEnds(fs, file, stat.size, generations[0].version));
  } catch (err) {
    ends = { refusal: { rule: 'read', ...say('could not read the log: {0}', err instanceof Error ? err.message : String(err)) } };
  }
  return {
    ...entryFacts(file, fileName, ends, stat, compressed, nowMs),
    projectDir,
    sessionDir,
    id: ends.header?.id ?? sessionDir,
    otherGenerations: names.slice(1),
    generation: generations[0].version,
  };
}

/** What a row says of a log, read from its two ends: the same for a session folder's log and a loose one. */
function entryFacts<P>(
  file: P,
  fileName: string,
  ends: SessionEnds,
  stat: { size: number; mtimeMs: number },
  compressed: boolean,
  nowMs: number,
): Omit<SessionEntry<P>, 'projectDir' | 'sessionDir' | 'id' | 'otherGenerations' | 'generation'> {
  return {
    file,
    fileName,
    header: ends.header,
    title: ends.title,
    turns: ends.turns,
    events: ends.events,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    compressed,
    state: sessionState(ends, stat.mtimeMs, nowMs),
    refusal: ends.refusal,
  };
}

/** One log under a name of its own (a copy, a sample): listed when its first line is a session header. */
async function readLooseEntry<P>(fs: CatalogFs<P>, file: P, fileName: string, nowMs: number): Promise<SessionEntry<P> | undefined> {
  const stat = await fs.stat(file);
  if (!stat || stat.size === 0) return undefined;
  let read: { ends: SessionEnds; compressed: boolean };
  try {
    read = await readEnds(fs, file, stat.size);
  } catch {
    return undefined;
  }
  const { ends, compressed } = read;
  if (!ends.headerLine) return undefined;
  const version = ends.header?.version;
  return {
    ...entryFacts(file, fileName, ends, stat, compressed, nowMs),
    projectDir: '',
    sessionDir: '',
    id: ends.header?.id ?? fileName,
    otherGenerations: [],
    ...(typeof version === 'number' ? { generation: version } : {}),
  };
}

const LOG_NAME = /\.jsonl(\.zstd)?$/;

/**
 * The session logs in a folder that is not a sessions root (an open workspace folder): the folder as a
 * session folder (dsh's canonical names, its current generation), every other `*.jsonl` or
 * `*.jsonl.zstd` file whose first line is a session header, and the session folders just under it.
 */
export async function listFolderLogs<P>(
  fs: CatalogFs<P>,
  dir: P,
  options: Pick<ListOptions<P>, 'nowMs' | 'isCancelled'> = {},
): Promise<SessionEntry<P>[]> {
  const nowMs = options.nowMs ?? Date.now();
  const isCancelled = options.isCancelled ?? (() => false);
  const listed = await fs.list(dir);
  const out: SessionEntry<P>[] = [];
  const names = listed.filter((e) => !e.isDirectory).map((e) => e.name);
  const canonical = new Set(listGenerations(names).map((g) => g.name));
  if (canonical.size > 0) {
    const entry = await readEntry(fs, '', '', dir, nowMs);
    if (entry) out.push(entry);
  }
  const loose = names.filter((name) => LOG_NAME.test(name) && !canonical.has(name));
  const folders = listed.filter((e) => e.isDirectory && !e.name.startsWith('.') && e.name !== 'node_modules').map((e) => e.name);
  await pool(
    loose,
    8,
    async (name) => {
      const entry = await readLooseEntry(fs, fs.child(dir, name), name, nowMs);
      if (entry) out.push(entry);
    },
    isCancelled,
  );
  await pool(
    folders,
    8,
    async (name) => {
      const folder = fs.child(dir, name);
      const inside = (await fs.list(folder)).filter((e) => !e.isDirectory).map((e) => e.name);
      if (listGenerations(inside).length === 0) return;
      const entry = await readEntry(fs, '', name, folder, nowMs);
      if (entry) out.push(entry);
    },
    isCancelled,
  );
  return sortNewestFirst(out);
}

/** Every session under `root`, newest (last written) first. */
export async function listSessions<P>(fs: CatalogFs<P>, root: P, options: ListOptions<P> = {}): Promise<SessionEntry<P>[]> {
  const isCancelled = options.isCancelled ?? (() => false);
  const nowMs = options.nowMs ?? Date.now();
  const batchSize = options.batchSize ?? 64;
  const concurrency = options.concurrency ?? 16;
  const projects = (await fs.list(root))
    .filter((e) => e.isDirectory && (!options.projectDirs || options.projectDirs.includes(e.name)))
    .map((e) => e.name);
  const sessionDirs: { projectDir: string; sessionDir: string; dir: P }[] = [];
  await pool(
    projects,
    concurrency,
    async (projectDir) => {
      const projectPath = fs.child(root, projectDir);
      for (const e of await fs.list(projectPath)) {
        if (e.isDirectory) sessionDirs.push({ projectDir, sessionDir: e.name, dir: fs.child(projectPath, e.name) });
      }
    },
    isCancelled,
  );

  const all: SessionEntry<P>[] = [];
  let pending: SessionEntry<P>[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    options.onBatch?.(batch);
  };
  await pool(
    sessionDirs,
    concurrency,
    async ({ projectDir, sessionDir, dir }) => {
      const entry = await readEntry(fs, projectDir, sessionDir, dir, nowMs);
      if (!entry) return;
      all.push(entry);
      pending.push(entry);
      if (pending.length >= batchSize) flush();
    },
    isCancelled,
  );
  flush();
  return sortNewestFirst(all);
}

export function sortNewestFirst<P>(entries: SessionEntry<P>[]): SessionEntry<P>[] {
  return entries.sort((a, b) => b.mtimeMs - a.mtimeMs || a.id.localeCompare(b.id));
}
