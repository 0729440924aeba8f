// A log of a later generation (v1 and on) read for the views. dsh's format layer reads the file as its
// own generation — the codec decodes the rows, the generation's restore validates the whole artifact —
// and gives the verdict; every event it keeps is then handed, with its place in the file, to the same
// index, surface fold and whole-log facts that a v0 log's events go through. So every view works on
// every generation from one model, and only reading differs.
import type { Diagnostic, ErrorName, SessionEvent, SessionHeader, Verdict } from '../types';
import type { Utf8Slicer } from './columns';
import { readGeneration, type FormatRead, type FormatVerdict } from '../format/catalog';
import { CURRENT_FORMAT_VERSION, findGeneration } from '../format/generations';
import type { FormatEvent } from '../format/types';
import { v4Closers } from '../format/v3-to-v4/closers';
import { say } from '../words';

/** Where the events of a read go: the log's index, fold and facts, one event at a time. */
export interface GenerationSink {
  /** Events kept so far (a followed log is read again and only the new ones are handed on). */
  readonly eventCount: number;
  keepDecoded(event: SessionEvent, fileLine: number, offset: number, length: number, member: number): void;
}

const LF = 0x0a;

/** The rule a format refusal is reported under, by the stage that refused. */
function ruleOf(verdict: FormatVerdict): string {
  return verdict.stage === 'migrate' && verdict.edge ? `format.migrate.${verdict.edge}` : `format.${verdict.stage}`;
}

/** A format-layer verdict as the log's verdict (the stage names are dsh's format layer's). */
export function asVerdict(verdict: FormatVerdict): Verdict {
  if (verdict.ok) return { ok: true, stage: 'done' };
  const out: Verdict = {
    ok: false,
    stage: verdict.stage === 'done' ? 'restore' : verdict.stage,
    dshError: verdict.dshError ?? verdict.reason ?? 'refused',
    errorName: (verdict.errorName ?? 'Error') as ErrorName,
    rule: ruleOf(verdict),
  };
  out.error = out.dshError;
  if (verdict.line !== undefined) out.line = verdict.line;
  if (verdict.edge !== undefined) out.edge = verdict.edge;
  return out;
}

/** Byte offsets of line starts, found as far as asked (a followed log's text only grows). */
class LineStarts {
  private readonly starts: number[] = [0];

  /** Offset where 1-based `line` starts, or -1 when the text has fewer lines. */
  at(text: Uint8Array, line: number): number {
    const starts = this.starts;
    while (starts.length < line) {
      const next = text.indexOf(LF, starts[starts.length - 1]);
      if (next === -1) return -1;
      starts.push(next + 1);
    }
    return starts[line - 1];
  }
}

/**
 * v2+ rows write runs of three or more consecutive `sourceEventSeqs` as `[start, end]` pairs; an event
 * read again from its line gets them back as seqs. The format layer checked the row when the log was
 * read, so a pair is trusted here (one that claims more seqs than the event's own seq is left as written).
 */
export function expandStoredRanges(stored: SessionEvent): SessionEvent {
  const sources = stored.sourceEventSeqs as unknown;
  if (!Array.isArray(sources) || !sources.some((entry) => Array.isArray(entry))) return stored;
  const seqs: number[] = [];
  for (const entry of sources) {
    if (!Array.isArray(entry)) {
      seqs.push(entry as number);
      continue;
    }
    const [start, end] = entry as [number, number];
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && end >= start && end - start < stored.seq)) return stored;
    for (let seq = start; seq <= end; seq++) seqs.push(seq);
  }
  return { ...stored, sourceEventSeqs: seqs };
}

export interface GenerationReadOptions {
  utf8Slicer?: Utf8Slicer;
  /**
   * The generation the file's canonical name (`session.v4.jsonl`) says: today's dsh refuses a header
   * that differs from it. Undefined for other names (copies, corpora), which dsh never reads.
   */
  canonicalNameVersion?: number;
}

/**
 * The reading of one later-generation log: its own generation's verdict, the events handed to the
 * views, and (asked for on demand, then kept) the verdict of today's dsh, which migrates the file.
 */
export class GenerationReading {
  private read: FormatRead | undefined;
  /** Text bytes the last own read covered. */
  private readBytes = -1;
  private readonly lines = new LineStarts();
  private upgradeCache: { textBytes: number; digest: boolean; read: FormatRead } | undefined;
  /** Diagnostics of the last read (its refusal, what recovery dropped, the torn tail). */
  diagnostics: Diagnostic[] = [];
  /**
   * The closers today's dsh writes to close the open final turn of a log of its own format (v4's
   * tool-role results); undefined for older generations, whose closers the v0 closer scan gives.
   */
  closers: SessionEvent[] | undefined;

  constructor(
    /** The version the header names. */
    readonly version: number,
    private readonly options: GenerationReadOptions,
  ) {}

  /** A reading for a fork of the log: it reads the fork's text (the parent's and what is appended to it) on its own. */
  fork(): GenerationReading {
    const copy = new GenerationReading(this.version, this.options);
    copy.read = this.read;
    copy.readBytes = this.readBytes;
    copy.diagnostics = this.diagnostics;
    copy.closers = this.closers;
    return copy;
  }

  /** Whether this build has a codec for the version (else the read refuses at the header, in dsh's words). */
  get registered(): boolean {
    return findGeneration(this.version) !== undefined;
  }

  /** Reads `text` (the whole text so far) and hands the events the sink does not have yet. */
  readInto(text: Uint8Array, sink: GenerationSink): void {
    // A version newer than this build's is read as today's: dsh's header read then refuses it in its words.
    const read = readGeneration(text, {
      targetVersion: Math.min(this.version, CURRENT_FORMAT_VERSION),
      encode: false,
      utf8Slicer: this.options.utf8Slicer,
    });
    this.read = read;
    this.readBytes = text.length;
    this.diagnostics = this.describe(read.verdict);
    const events = read.artifact?.events ?? [];
    if (this.version >= CURRENT_FORMAT_VERSION) this.closers = v4Closers(events) as SessionEvent[];
    const places = read.eventPlaces;
    if (!places) return;
    for (let i = sink.eventCount; i < events.length; i++) {
      const line = places.line[i];
      const offset = this.lines.at(text, line);
      if (offset < 0) continue;
      let end = text.indexOf(LF, offset);
      if (end === -1) end = text.length;
      const length = end > offset && text[end - 1] === 0x0d ? end - offset - 1 : end - offset;
      sink.keepDecoded(events[i] as FormatEvent as SessionEvent, line, offset, length, places.member[i]);
    }
  }

  /** The verdict of the file's own generation. */
  get verdict(): Verdict {
    return this.read ? asVerdict(this.read.verdict) : { ok: false, stage: 'header', rule: 'format.header', dshError: 'not read yet' };
  }

  get formatVerdict(): FormatVerdict | undefined {
    return this.read?.verdict;
  }

  /** The inherited cut the generation's own read found (a seeded child's inherited events). */
  get inheritedEventCount(): number | undefined {
    return this.read?.verdict.inheritedEventCount;
  }

  /** What today's dsh does when it opens the file: migrates it to the current format, or refuses. */
  upgrade(text: Uint8Array, digest = true): FormatRead {
    const cached = this.upgradeCache;
    if (cached?.textBytes === text.length && (cached.digest || !digest)) return cached.read;
    // A file of today's format is read as itself: its own read is today's dsh's (unless its name says another generation).
    const sameName = this.options.canonicalNameVersion === undefined || this.options.canonicalNameVersion === this.version;
    if (!digest && this.version === CURRENT_FORMAT_VERSION && sameName && this.read && this.readBytes === text.length) return this.read;
    const read = readGeneration(text, {
      targetVersion: CURRENT_FORMAT_VERSION,
      utf8Slicer: this.options.utf8Slicer,
      fileNameVersion: this.options.canonicalNameVersion,
      encode: digest,
    });
    this.upgradeCache = { textBytes: text.length, digest, read };
    return read;
  }

  /** The file read as generation `target` (migrated there when older), uncached. */
  readAs(text: Uint8Array, target: number): FormatRead {
    if (target === CURRENT_FORMAT_VERSION) return this.upgrade(text, true);
    return readGeneration(text, { targetVersion: target, utf8Slicer: this.options.utf8Slicer });
  }

  private describe(verdict: FormatVerdict): Diagnostic[] {
    const out: Diagnostic[] = [];
    if (verdict.recovered) {
      out.push({
        severity: 'warning',
        rule: 'jsonl.damaged-line',
        line: verdict.recovered.line,
        ...say('dsh keeps only the events before line {0}: {1}', verdict.recovered.line, verdict.recovered.error),
      });
    }
    if (!verdict.ok) {
      const refusal = asVerdict(verdict);
      out.unshift({
        severity: 'error',
        rule: refusal.rule ?? 'format',
        message: refusal.dshError ?? 'refused',
        ...(refusal.line !== undefined ? { line: refusal.line } : {}),
        refusing: true,
      });
    }
    return out;
  }
}

/** The header of a later generation as the views show it (its physical fields, `isSeeded` for the seed). */
export function generationHeader(raw: unknown): SessionHeader | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || typeof r.version !== 'number') return undefined;
  const header: Record<string, unknown> = { version: r.version, id: r.id, createdAt: r.createdAt };
  for (const key of ['cwd', 'parentSession', 'isSeeded', 'seedLength', 'origin', 'delegationDepth', 'agentPreset'])
    if (r[key] !== undefined) header[key] = r[key];
  return header as unknown as SessionHeader;
}
