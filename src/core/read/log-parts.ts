// The parts a loaded SessionLog is made of, in one object, and how they are made for a new log and for a
// fork. `SessionLog` (session-log.ts) is the public model and conducts the read; the stages that take
// each event (event-stages.ts, validated-events.ts), the event lookups (log-lookup.ts), the reading's
// diagnostics (log-diagnostics.ts) and the append check (log-appending.ts) work on these parts directly,
// so each can live in its own file without reaching into the class. Some parts are replaced while
// reading (a later generation's refused first read starts the index, findings and fold again), which is
// why they are fields of one shared object.
import type { Diagnostic, SessionEvent } from '../types';
import type { LogFacts } from '../check/log-facts';
import { SurfaceState } from '../surface/surface-state';
import { EventIndex } from './event-index';
import type { GenerationReading } from './generation-reading';
import { LineScanner } from './line-scanner';
import type { Utf8Slicer } from './columns';
import { VerdictKeeper, type VerdictInputs } from './verdict';
import { eventAt, messageIdAt } from './log-lookup';

export interface LogParts {
  /** Finds and parses lines; holds the bytes read so far. */
  readonly scanner: LineScanner;
  /** Every kept event's facts in typed-array columns; bodies are parsed again on demand. */
  index: EventIndex;
  /** dsh's verdict as the stages find it, and what reading reports. */
  verdicts: VerdictKeeper;
  /** The surface fold and the closer scan. */
  state: SurfaceState;
  /** Provenance and relational-invariant bookkeeping, gathered in the load's pass (none on a fork). */
  gathered: LogFacts | undefined;
  /** Set when the header names a later generation (v1 and on): dsh's format layer reads the file. */
  generation: GenerationReading | undefined;
  /** What the header's session fields fail of the seed's checks, if anything. */
  headerSeedError: string | undefined;
  /** Where the fold disagreed with an event the format layer kept (none when the two agree). */
  readonly foldProblems: Diagnostic[];
  /** One event by seq, bound once: the stages call it per event. */
  readonly lookup: (seq: number) => SessionEvent | undefined;
  /** The message id an earlier event carries, bound once (legacy replacements ask for it). */
  readonly messageIdAt: (seq: number) => string | undefined;
}

/** The session id the header names ('' before a header is read). */
export function sessionIdOf(parts: LogParts): string {
  return parts.scanner.headerRead?.header?.id ?? '';
}

/** What the verdict keeper asks of the log beyond its findings, read from the parts when it asks. */
export function verdictInputsOf(parts: LogParts): VerdictInputs {
  return {
    get headerRead() {
      return parts.scanner.headerRead !== undefined;
    },
    get sessionId() {
      return sessionIdOf(parts);
    },
    get headerSeedError() {
      return parts.headerSeedError;
    },
    closerRefusal: () => parts.state.repaired().closerRefusal,
    closerCrash: () => parts.state.repaired().closerCrash,
  };
}

/** The parts of a log of `bytes`, nothing read yet (its whole-log facts are gathered once the log is made). */
export function newLogParts(bytes: Uint8Array, maxLineBytes: number, utf8Slicer: Utf8Slicer | undefined): LogParts {
  const scanner = new LineScanner(bytes, maxLineBytes, utf8Slicer);
  const index = new EventIndex(scanner.bytes);
  const parts: LogParts = {
    scanner,
    index,
    verdicts: new VerdictKeeper(),
    state: new SurfaceState(index, () => parts.verdicts.has('closers')),
    gathered: undefined,
    generation: undefined,
    headerSeedError: undefined,
    foldProblems: [],
    lookup: (seq) => eventAt(parts, seq),
    messageIdAt: (seq) => messageIdAt(parts, seq),
  };
  return parts;
}

/**
 * The parts of a fork: the parent's bytes and everything read from them, shared where the fork only
 * adds (the bytes, the parsed lines) and copied where it may change them (index columns, findings, fold).
 * A fork gathers no whole-log facts in its pass (SessionLog.facts reads them when asked).
 */
export function forkLogParts(from: LogParts): LogParts {
  const scanner = from.scanner.fork();
  const index = from.index.fork(scanner.bytes);
  const reading = from.generation?.fork();
  const parts: LogParts = {
    scanner,
    index,
    verdicts: new VerdictKeeper(from.verdicts),
    state: new SurfaceState(index, () => parts.verdicts.has('closers'), from.state),
    gathered: undefined,
    generation: reading,
    headerSeedError: from.headerSeedError,
    foldProblems: [],
    lookup: (seq) => eventAt(parts, seq),
    messageIdAt: (seq) => messageIdAt(parts, seq),
  };
  if (reading) {
    index.storedEvent = from.index.storedEvent;
    if (from.state.closerSource) parts.state.closerSource = () => reading.closers ?? [];
  }
  return parts;
}
