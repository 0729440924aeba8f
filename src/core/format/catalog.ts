// Reading a file as a target generation, the way dsh's catalog does: the header (refused when newer
// than the target), the stored generation's decoder, the chain of adjacent migrations up to the
// target streamed row by row, then the target generation's restore. The outcome is a verdict in the
// conformance corpus's terms: the stage where dsh stopped, dsh's error verbatim, the physical line.
// The events stream through: the restore visits each as it is decoded (its refusal, held until the
// rows and the migrations are done, is the restore stage's), a caller may take each with its place in
// the file, and the whole artifact is held only when it is encoded or asked for.
import { refusingMigration, type MigrationChain, type MigrationStream } from './chain';
import { ReadEvents } from './read-events';
import { encodeArtifact } from './encode';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from './errors';
import { FORMAT_GENERATIONS, findGeneration } from './generations';
import { chainOf, readFormatHeader } from './header-reading';
import { formatCount } from './json';
import { openPhysicalLog, PhysicalRefusal, TORN_TAIL, walkRows, type PhysicalLog } from './physical';

const CR = 0x0d;
import type { Artifact, FormatGeneration, LogicalHeader, RestoreVisit, RowDecoder } from './types';
import type { FormatRead, FormatStage, FormatVerdict, ReadGenerationOptions } from './verdict';

export type { DecodedEventCallback, EventPlace } from './read-events';
export { readFormatHeader, type FormatHeaderReading } from './header-reading';
export type { FormatRead, FormatStage, FormatVerdict, ReadGenerationOptions } from './verdict';

/** A refusal on its way to the verdict. */
class Stop {
  constructor(
    readonly stage: FormatStage,
    readonly error: unknown,
    readonly extra: Partial<FormatVerdict> = {},
  ) {}
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads `file` as generation `targetVersion`. Never throws on bad input. */
export function readGeneration(file: Uint8Array, options: ReadGenerationOptions): FormatRead {
  const generations = options.generations ?? FORMAT_GENERATIONS;
  const verdict: FormatVerdict = { ok: false, stage: 'header', targetVersion: options.targetVersion };
  const target = findGeneration(options.targetVersion, generations);
  if (!target) {
    const registered = generations.map((generation) => `v${generation.version}`).join(', ');
    return {
      verdict: {
        ...verdict,
        errorName: 'TargetNotRegistered',
        reason: `format v${options.targetVersion} is not registered in this build (${registered})`,
      },
    };
  }
  const reader = new GenerationReader(options, generations, target, verdict);
  let read: FormatRead;
  try {
    read = reader.read(file);
  } catch (error) {
    const stop = error instanceof Stop ? error : new Stop(reader.stage, error);
    Object.assign(verdict, { stage: stop.stage, errorName: errorName(stop.error), dshError: errorText(stop.error) }, stop.extra);
    read = { verdict, ...(reader.compressed === undefined ? {} : { compressed: reader.compressed }) };
  }
  // The caller's own failure is not the file's: it passes through.
  const callbackError = reader.events?.callbackError;
  if (callbackError) throw callbackError.error;
  return read;
}

class GenerationReader {
  /** The stage an unexpected failure is attributed to. */
  stage: FormatStage = 'bytes';
  compressed: boolean | undefined;
  /** Where the events go, once the rows are read. */
  events: ReadEvents | undefined;
  private readonly strict: boolean;
  private readonly chain: MigrationChain;

  constructor(
    private readonly options: ReadGenerationOptions,
    private readonly generations: readonly FormatGeneration[],
    private readonly target: FormatGeneration,
    private readonly verdict: FormatVerdict,
  ) {
    this.strict = options.recovery === 'strict';
    this.chain = chainOf(generations);
  }

  read(file: Uint8Array): FormatRead {
    const log = this.open(file);
    this.stage = 'header';
    const stored = formatCount((log.headerValue as Record<string, unknown>)['version'], 'Session format version');
    this.verdict.headerVersion = stored;
    if (this.options.fileNameVersion !== undefined && this.options.fileNameVersion !== stored)
      throw new Stop(
        'header',
        new Error(`resolved JSONL source filename identifies v${this.options.fileNameVersion}, but its header identifies v${stored}`),
      );
    const source = this.readHeader(log.headerValue, stored);
    const decoder = this.createDecoder(source, log.headerValue);
    const current = stored === this.target.version;
    const events = this.createEvents(current);
    const stream = current ? undefined : this.createStream(decoder, events);
    events.startRestore(this.startRestore(stream ? stream.header : decoder.header, current));
    const sink = stream ?? events;

    // Rows: decode (and migrate, streaming) one at a time, so a refusal names the row's line.
    let line = 0;
    let issueLine: number | undefined;
    let issue: unknown;
    this.stage = 'decode';
    let dropped: ReturnType<typeof walkRows>;
    try {
      dropped = walkRows(log, {
        current,
        strict: this.strict,
        admission: source.codec.admission,
        admitting: (at) => {
          line = at;
        },
        row: (value, at, start, end) => {
          line = at;
          events.line = at;
          events.offset = start;
          events.length = end > start && log.text[end - 1] === CR ? end - start - 1 : end - start;
          decoder.decodeRow(value, sink);
          if (issue === undefined && decoder.firstIssue) {
            issue = decoder.firstIssue();
            if (issue !== undefined) issueLine = at;
          }
        },
      });
    } catch (error) {
      if (error instanceof PhysicalRefusal) throw new Stop(error.stage, error, placed(error.line, error.throwLine));
      if (refusingMigration(error)) throw migrateStop(error, placed(line));
      if (issue !== undefined && error === issue) throw new Stop('decode', error, placed(issueLine, line));
      throw new Stop('decode', error, placed(line));
    }

    const end = this.finish(decoder, stream);
    this.restore(events, end, stored);
    if (this.strict && log.tornTail) throw new Stop('bytes', new Error(TORN_TAIL));
    return this.done(end, events, dropped ?? issueOf(issue, issueLine));
  }

  private open(file: Uint8Array): PhysicalLog {
    try {
      const log = openPhysicalLog(file, {
        zstdCodec: this.options.zstdCodec,
        zstdLimits: this.options.zstdLimits,
        utf8Slicer: this.options.utf8Slicer,
        strict: this.strict,
      });
      this.compressed = log.compressed;
      return log;
    } catch (error) {
      if (error instanceof PhysicalRefusal) throw new Stop(error.stage, error);
      throw error;
    }
  }

  /** dsh's readHeader: `unsupported` for a newer version or a refused header migration, else `malformed`. */
  private readHeader(headerValue: unknown, stored: number): FormatGeneration {
    const reading = readFormatHeader(headerValue, this.target.version, this.generations, this.chain);
    if (reading.status === 'unsupported' || reading.status === 'malformed')
      throw new Stop('header', reading.error ?? new Error(reading.reason), { errorName: `readHeader:${reading.status}` });
    return findGeneration(stored, this.generations)!;
  }

  private createDecoder(source: FormatGeneration, headerValue: unknown): RowDecoder {
    try {
      return source.codec.createDecoder(headerValue, this.strict ? 'strict' : 'recoverable');
    } catch (error) {
      throw new Stop('header', error, { errorName: 'readHeader:malformed' });
    }
  }

  /** Where the events go: the restore, the caller's callback (a read of the stored generation as itself), the artifact when kept. */
  private createEvents(current: boolean): ReadEvents {
    const keep = this.options.encode !== false || this.options.keepArtifact === true;
    this.events = new ReadEvents(keep, current ? this.options.onEvent : undefined);
    return this.events;
  }

  /** The target generation's restore, started on the header of the target form (it holds any refusal until the end). */
  private startRestore(header: LogicalHeader, current: boolean): RestoreVisit {
    const transformed = this.options.validation === 'transformed';
    const restorer = transformed ? (current ? undefined : (this.target.restoreTransformed ?? this.target.restore)) : this.target.restore;
    if (!restorer) return { event: () => {}, finish: () => {} };
    try {
      return restorer(header, current);
    } catch (error) {
      return {
        event: () => {},
        finish: () => {
          throw error;
        },
      };
    }
  }

  private createStream(decoder: RowDecoder, collector: ReadEvents): MigrationStream {
    this.stage = 'migrate';
    // A v2+ decoder learns the cut from its rows (the inherited end-seed marker), so the first stage
    // may start without it; it takes the cut from the events, as dsh's v2→v3 stage does.
    try {
      return this.chain.createStream(
        decoder.header,
        decoder.headerInheritedEventCount,
        this.target.version,
        collector,
        this.options.evidence,
      );
    } catch (error) {
      throw migrateStop(error, {});
    }
  }

  /** The decoder's and every stage's end: the target form's header and inherited cut. */
  private finish(decoder: RowDecoder, stream: MigrationStream | undefined): { header: LogicalHeader; inheritedEventCount: number } {
    const sink = stream ?? this.events!;
    let cut: number;
    try {
      cut = decoder.finish(sink);
      if (decoder.headerInheritedEventCount !== undefined && cut !== decoder.headerInheritedEventCount)
        throw new SessionFormatError('streaming decoder changed its predeclared inherited cut');
    } catch (error) {
      throw refusingMigration(error) ? migrateStop(error, {}) : new Stop('decode', error);
    }
    let header: LogicalHeader = decoder.header;
    if (stream) {
      try {
        cut = stream.finish();
      } catch (error) {
        throw migrateStop(error, {});
      }
      header = stream.header;
    }
    return { header, inheritedEventCount: cut };
  }

  /** The restore's end: its refusal, if it has one, is the restore stage's. */
  private restore(events: ReadEvents, end: { header: LogicalHeader; inheritedEventCount: number }, stored: number): void {
    this.stage = 'restore';
    const migrated = stored !== this.target.version;
    const transformed = this.options.validation === 'transformed';
    try {
      events.finishRestore(end.inheritedEventCount);
    } catch (error) {
      if (!transformed || !migrated || error instanceof SessionFormatUnsupportedMigrationError) throw new Stop('restore', error);
      const detail = errorText(error);
      throw new Stop(
        'restore',
        new SessionFormatUnsupportedMigrationError(
          `Session migration from v${stored} to v${this.target.version} refuses the transformed artifact: ${detail}`,
          { cause: error },
        ),
      );
    }
    if (end.header.version !== this.target.version)
      throw new Stop(
        'restore',
        new SessionFormatError(`current Session restorer returned v${end.header.version}; expected v${this.target.version}`),
      );
  }

  private done(
    end: { header: LogicalHeader; inheritedEventCount: number },
    events: ReadEvents,
    issue: { message: string; line: number } | undefined,
  ): FormatRead {
    const verdict = this.verdict;
    verdict.ok = true;
    verdict.stage = 'done';
    verdict.events = events.count;
    verdict.inheritedEventCount = end.inheritedEventCount;
    verdict.isSeeded = end.header.isSeeded;
    if (issue) verdict.recovered = { line: issue.line, error: issue.message };
    verdict.types = events.typeHistogram();
    const artifact: Artifact | undefined = events.events && { ...end, events: events.events };
    if (this.options.encode !== false) {
      this.stage = 'restore';
      const encoded = encodeArtifact(artifact!, this.target.codec, { sha256: this.options.sha256 });
      verdict.sha256 = encoded.sha256;
      verdict.bytes = encoded.bytes;
    }
    return {
      verdict,
      ...(artifact ? { artifact } : {}),
      ...(this.compressed === undefined ? {} : { compressed: this.compressed }),
    };
  }
}

/** A refusal of the chain, with the edge it came from. */
function migrateStop(error: unknown, extra: Partial<FormatVerdict>): Stop {
  const migration = refusingMigration(error);
  return new Stop('migrate', error, { ...(migration ? { edge: migration.edge } : {}), ...extra });
}

function placed(line: number | undefined, throwLine?: number): Partial<FormatVerdict> {
  return {
    ...(line !== undefined && line > 0 ? { line } : {}),
    ...(throwLine !== undefined && throwLine > 0 && throwLine !== line ? { throwLine } : {}),
  };
}

function issueOf(issue: unknown, line: number | undefined): { message: string; line: number } | undefined {
  return issue !== undefined && line !== undefined ? { message: errorText(issue), line } : undefined;
}
