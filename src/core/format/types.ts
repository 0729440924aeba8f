// The generations layer's vocabulary: how one format generation is read from its physical rows
// (a codec), how a generation becomes the next one (an adjacent migration), and what a restore
// of a whole artifact checks. dsh reads every log this way: decode the stored generation, run the
// adjacent migrations up to the target, then validate the result as the target generation. Adding a
// generation is one codec and one migration.

/** The logical header every generation's codec decodes to (what migrations and restores see). */
export interface LogicalHeader {
  version: number;
  id: string;
  createdAt: number;
  cwd?: string;
  parentSession?: string;
  isSeeded: boolean;
  origin?: string;
  delegationDepth: number;
  agentPreset?: string;
}

/**
 * One logical event as a generation holds it: a JSON object whose key order is kept, because an
 * encoder writes keys in the order the object has them and the bytes must equal dsh's.
 */
export interface FormatEvent {
  type: string;
  seq: number;
  time: number;
  data: unknown;
  ignorable?: boolean;
  sourceEventSeqs?: number[];
  surfaceOp?: unknown;
  [key: string]: unknown;
}

/**
 * A compact run of events that one physical row holds (v0/v1 packed chunk rows). A stage may take
 * the run whole (v1→v2 folds chunk runs into a message's stream) or expand it.
 */
export interface EventRun {
  /** What kind of run this is, so a stage can recognise the runs it understands. */
  readonly runType: string;
  readonly firstSeq: number;
  readonly eventCount: number;
  expand(): Iterable<FormatEvent>;
  readonly [key: string]: unknown;
}

/** Where decoders and migration stages put what they emit. */
export interface EventSink {
  emitEvent(event: FormatEvent): void;
  emitRun(run: EventRun): void;
}

/**
 * `strict`: the first malformed row or seq gap fails the read (an isolated verifier).
 * `recoverable`: the first issue ends the accepted prefix, unless a later complete row is a
 * `turn/end`, which makes the read fail (what dsh does when it opens a session).
 */
export type Recovery = 'strict' | 'recoverable';

/** Decodes the physical rows (parsed JSON lines after the header) of one file, in order. */
export interface RowDecoder {
  readonly header: LogicalHeader;
  /** The inherited cut when the header alone tells it (v0/v1 `seedLength`); undefined when the rows do (v2+). */
  readonly headerInheritedEventCount: number | undefined;
  decodeRow(row: unknown, out: EventSink): void;
  /** After the last row: returns the inherited event count (the seed cut). */
  finish(out: EventSink): number;
  /**
   * The recoverable issue the decoder holds back (`recoverable` only), if any: the reader asks after
   * each row so that a later refusal carrying this issue names the line where it arose.
   */
  firstIssue?(): unknown;
}

/**
 * Structural admission that a generation applies to every parsed row of its own generation, before
 * recovery decides whether a row is kept, so that it refuses even rows after damage (dsh's v3+ codecs).
 */
export interface RowAdmission {
  /** Throws SessionFormatError (or SessionFormatUnsupportedMigrationError) for a row it refuses. */
  admit(row: unknown): void;
  /**
   * A cheap look at a line's text: false when admission cannot refuse the row it holds, so a line
   * after damage need not even be parsed. Must not answer false for a line `admit` could refuse.
   */
  mayRefuse(lineText: string): boolean;
}

/** One generation's physical layout: header and rows as they are on disk. */
export interface FormatCodec {
  readonly version: number;
  /** The physical header line's value to the logical header; throws SessionFormatError. */
  decodeHeader(value: unknown): LogicalHeader;
  createDecoder(headerValue: unknown, recovery: Recovery): RowDecoder;
  /** Admission of the rows of a file of this generation read as this generation (current reads). */
  readonly admission?: RowAdmission;
  /** The logical header to the physical header value (key order as dsh's encoder writes it). */
  encodeHeader(header: LogicalHeader, inheritedEventCount: number): Record<string, unknown>;
  /** One logical event to its physical row value (e.g. range-encoded `sourceEventSeqs` from v2 on). */
  encodeEvent(event: FormatEvent): Record<string, unknown>;
}

export interface MigrationStageContext {
  readonly sourceHeader: LogicalHeader;
  readonly targetHeader: LogicalHeader;
  /**
   * The source's inherited cut when it is known before the events: a v0/v1 header's `seedLength`, or
   * what the previous stage declared. Undefined when only the events tell it (a v2+ source decoded
   * from its rows; a seeded source whose previous edge places the cut as it streams, as v1→v2 does).
   */
  readonly sourceInheritedEventCount: number | undefined;
  /** `decoded`: the stage reads a codec's output; `transformed`: another migration's. */
  readonly sourceKind: 'decoded' | 'transformed';
  /** What the caller handed in beside the file (e.g. child logs for an edge that needs them). */
  readonly evidence?: Readonly<Record<string, unknown>>;
}

/** The streaming part of one adjacent migration, for one artifact. */
export interface MigrationStage {
  /** The target's inherited cut when it is known before the events are seen. */
  readonly headerInheritedEventCount?: number;
  transformEvent(event: FormatEvent, out: EventSink): void;
  transformRun(run: EventRun, out: EventSink): void;
  /** After the last event: flushes what it held back and returns the target's inherited cut. */
  finish(out: EventSink): number;
}

/** An adjacent migration vN → vN+1. Its name is dsh's package name (it appears in dsh's messages). */
export interface FormatMigration {
  readonly name: string;
  /** The edge as the conformance corpus names it: `v0-to-v1`. */
  readonly edge: string;
  readonly fromVersion: number;
  readonly toVersion: number;
  migrateHeader(header: LogicalHeader): LogicalHeader;
  validateTargetHeader(header: LogicalHeader): void;
  createStage(context: MigrationStageContext): MigrationStage;
}

/** A whole logical log of one generation. */
export interface Artifact {
  header: LogicalHeader;
  inheritedEventCount: number;
  events: FormatEvent[];
}

/**
 * Validates a whole artifact as its generation (envelopes, vocabulary, surface metadata,
 * relationships) and returns it unchanged; throws SessionFormatError.
 */
export type ArtifactRestorer = (artifact: Artifact) => Artifact;

/**
 * One artifact's restore as the catalog runs it: it visits the events in order as they are decoded
 * (keeping only what its later checks need, not the events), and after the last one throws the
 * refusal the restore of the whole artifact would throw, if any. The inherited cut comes last,
 * because a v2+ log's rows tell it only at their end.
 */
export interface RestoreVisit {
  /** The next event. Never throws: a refusal is held until `finish`. */
  event(event: FormatEvent): void;
  /** After the last event. Throws SessionFormatError (or another refusal) as the whole-artifact restore would. */
  finish(inheritedEventCount: number): void;
}

/**
 * Starts the restore of an artifact with this header (a refusal of the header itself is held until
 * `finish`). `decoded`: the events come straight from this generation's codec (a file of this
 * generation read as itself), which may have checked each row already; otherwise a migration made them
 * or a caller holds them.
 */
export type StreamingRestorer = (header: LogicalHeader, decoded: boolean) => RestoreVisit;

/** Everything the catalog needs of one generation. */
export interface FormatGeneration {
  readonly version: number;
  readonly codec: FormatCodec;
  /** The migration that produces this generation from the previous one (absent for v0). */
  readonly migrationFrom?: FormatMigration;
  /** The restore of an artifact read natively as this generation (`validation: 'current'`). */
  readonly restore: StreamingRestorer;
  /**
   * The restore of an artifact migrated into this generation from an older one, when it differs
   * from `restore` (dsh's `restoreTransformedCurrent`); defaults to `restore`.
   */
  readonly restoreTransformed?: StreamingRestorer;
}
