// Reading a file as a target generation, the way dsh's catalog does: the header (refused when newer
// than the target), the stored generation's decoder, the chain of adjacent migrations up to the
// target streamed row by row, then the target generation's restore. The outcome is a verdict in the
// conformance corpus's terms: the stage where dsh stopped, dsh's error verbatim, the physical line.
import { refusingMigration, type MigrationChain, type MigrationStream } from './chain';
import { EventCollector } from './collector';
import { encodeArtifact } from './encode';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from './errors';
import { FORMAT_GENERATIONS, findGeneration } from './generations';
import { chainOf, readFormatHeader } from './header-reading';
import { formatCount } from './json';
import { openPhysicalLog, PhysicalRefusal, TORN_TAIL, walkRows, type PhysicalLog } from './physical';
import type { Artifact, FormatGeneration, LogicalHeader, RowDecoder } from './types';
import type { FormatRead, FormatStage, FormatVerdict, ReadGenerationOptions } from './verdict';

export type { EventPlaces } from './collector';
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
  try {
    return reader.read(file);
  } catch (error) {
    const stop = error instanceof Stop ? error : new Stop(reader.stage, error);
    Object.assign(verdict, { stage: stop.stage, errorName: errorName(stop.error), dshError: errorText(stop.error) }, stop.extra);
    return { verdict, ...(reader.compressed === undefined ? {} : { compressed: reader.compressed }) };
  }
}

class GenerationReader {
  /** The stage an unexpected failure is attributed to. */
  stage: FormatStage = 'bytes';
  compressed: boolean | undefined;
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
    const collector = new EventCollector(current);
    const stream = current ? undefined : this.createStream(decoder, collector);
    const sink = stream ?? collector;

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
        row: (value, at) => {
          line = at;
          collector.line = at;
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

    const artifact = this.finish(decoder, stream, collector);
    const restored = this.restore(artifact, stored);
    if (this.strict && log.tornTail) throw new Stop('bytes', new Error(TORN_TAIL));
    return this.done(restored, collector, dropped ?? issueOf(issue, issueLine));
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

  private createStream(decoder: RowDecoder, collector: EventCollector): MigrationStream {
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

  /** The decoder's and every stage's end: the inherited cut and the events. */
  private finish(decoder: RowDecoder, stream: MigrationStream | undefined, collector: EventCollector): Artifact {
    const sink = stream ?? collector;
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
    return { header, inheritedEventCount: cut, events: collector.events };
  }

  private restore(artifact: Artifact, stored: number): Artifact {
    this.stage = 'restore';
    const migrated = stored !== this.target.version;
    const transformed = this.options.validation === 'transformed';
    const restorer = transformed ? (migrated ? (this.target.restoreTransformed ?? this.target.restore) : undefined) : this.target.restore;
    let restored = artifact;
    try {
      if (restorer) restored = restorer(artifact);
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
    if (restored.header.version !== this.target.version)
      throw new Stop(
        'restore',
        new SessionFormatError(`current Session restorer returned v${restored.header.version}; expected v${this.target.version}`),
      );
    return restored;
  }

  private done(artifact: Artifact, collector: EventCollector, issue: { message: string; line: number } | undefined): FormatRead {
    const verdict = this.verdict;
    verdict.ok = true;
    verdict.stage = 'done';
    verdict.events = artifact.events.length;
    verdict.inheritedEventCount = artifact.inheritedEventCount;
    verdict.isSeeded = artifact.header.isSeeded;
    if (issue) verdict.recovered = { line: issue.line, error: issue.message };
    verdict.types = typeHistogram(artifact);
    if (this.options.encode !== false) {
      this.stage = 'restore';
      const encoded = encodeArtifact(artifact, this.target.codec, { sha256: this.options.sha256 });
      verdict.sha256 = encoded.sha256;
      verdict.bytes = encoded.bytes;
    }
    const places = collector.places();
    return {
      verdict,
      artifact,
      ...(places ? { eventPlaces: places } : {}),
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

function typeHistogram(artifact: Artifact): Record<string, number> {
  const counts = new Map<string, number>();
  for (const event of artifact.events) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
  const out: Record<string, number> = {};
  for (const type of [...counts.keys()].sort()) out[type] = counts.get(type)!;
  return out;
}
