// A log of a later generation (v1 and on) read for the views. dsh's format layer reads the file as its
// own generation — the codec decodes the rows, the generation's restore validates the whole artifact —
// and gives the verdict; every event it keeps is handed, with its place in the file, to the same
// index, surface fold and whole-log facts that a v0 log's events go through. So every view works on
// every generation from one model, and only reading differs. The events are handed on as they are
// decoded, so neither the format layer nor this reading holds them.
import type { Diagnostic, ErrorName, SessionEvent, SessionHeader, Verdict } from '../types';
import type { Utf8Slicer } from './columns';
import { readGeneration, type EventPlace, type FormatRead, type FormatVerdict } from '../format/catalog';
import { CURRENT_FORMAT_VERSION, findGeneration } from '../format/generations';
import type { FormatEvent } from '../format/types';
import { V4OpenTurn } from '../format/v3-to-v4/closers';
import { say } from '../words';

/** Where the events of a read go: the log's index, fold and facts, one event at a time. */
export interface GenerationSink {
  /** Events kept so far (a followed log is read again and only the new ones are handed on). */
  readonly eventCount: number;
  keepDecoded(event: SessionEvent, fileLine: number, offset: number, length: number, member: number): void;
  /**
   * Forgets every event handed on: dsh refused the log after the first read had handed them on as
   * they were decoded, and a refused read keeps none. Without it, a read holds its events until the verdict.
   */
  forgetDecoded?(): void;
}

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

  /**
   * Reads `text` (the whole text so far) and hands the events the sink does not have yet. The first
   * read of a log hands them on as they are decoded (should dsh refuse the log, the sink forgets them
   * again); a later one (a followed or forked log, read again whole) holds its few new events until
   * the verdict.
   */
  readInto(text: Uint8Array, sink: GenerationSink): void {
    const kept = sink.eventCount;
    const streaming = this.read === undefined && kept === 0 && sink.forgetDecoded !== undefined;
    const openTurn = this.version >= CURRENT_FORMAT_VERSION ? new V4OpenTurn() : undefined;
    const held: { event: FormatEvent; place: EventPlace }[] = [];
    let index = 0;
    let handed = false;
    // A version newer than this build's is read as today's: dsh's header read then refuses it in its words.
    const read = readGeneration(text, {
      targetVersion: Math.min(this.version, CURRENT_FORMAT_VERSION),
      encode: false,
      utf8Slicer: this.options.utf8Slicer,
      onEvent: (event, place) => {
        openTurn?.observe(event);
        if (index++ < kept) return;
        if (!streaming) {
          held.push({ event, place });
          return;
        }
        handed = true;
        sink.keepDecoded(event as SessionEvent, place.line, place.offset, place.length, place.member);
      },
    });
    this.read = read;
    this.readBytes = text.length;
    this.diagnostics = this.describe(read.verdict);
    const ok = read.verdict.ok;
    if (openTurn) this.closers = ok ? (openTurn.closers() as SessionEvent[]) : [];
    if (!ok) {
      if (handed) sink.forgetDecoded!();
      return;
    }
    for (const { event, place } of held) sink.keepDecoded(event as SessionEvent, place.line, place.offset, place.length, place.member);
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
