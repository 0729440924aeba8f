// A loaded dsh session log: the one model every view asks. It reads the bytes in one pass and reaches
// dsh's verdict in dsh's stage order (header, parse, adopt, known-types, closers, seed), while keeping a
// compact view of everything that could be read. This file is the public model and conducts the pieces:
// the loader (log-loader.ts) hands each kept line to the stages (event-stages.ts; a later generation's
// events and packed rows to validated-events.ts), the event index records its facts, the surface state
// folds it, and the whole-log facts (provenance, relational invariants) take it in the same pass. The
// lookups, the reading's diagnostics and the append check have files of their own; what all of them
// share is one `LogParts` object (log-parts.ts).
import type { DerivedMessage, ExtendResult, LoadOptions, SessionLogView } from '../api';
import { DEFAULT_READ_LIMITS } from '../api';
import type { Diagnostic, EventPlace, Replacement, ScanSummary, SessionEvent, SessionHeader, Verdict } from '../types';
import type { BalanceResult } from '../surface/projections';
import type { NewEvent, WidenedEvent } from '../plan/append-types';
import { plainEvents } from '../plan/plain-events';
import { LogFacts } from '../check/log-facts';
import type { FormatRead } from '../format/catalog';
import { asBytes, asSeqList, badInput, isSafeLoadOptions, readField, safeLoadOptions } from '../api-guard';
import { writingOf, type LogWriting } from './log-writing';
import type { EventFacts, SurfaceRole } from './event-index';
import type { LineBeyondDamage } from './line-scanner';
import type { StrictSeedVerdict, VerdictInputs } from './verdict';
import { generationHeader } from './generation-reading';
import { namedGeneration, type NamedGeneration } from './generation-choice';
import { KNOWN_EVENT_TYPES } from './known-types';
import { forkLogParts, newLogParts, verdictInputsOf, type LogParts } from './log-parts';
import { LogLoader } from './log-loader';
import { eventAt, eventTypeAt, lineTextAt, placeAt, stepAt, surfaceRoleAt, turnAt } from './log-lookup';
import { readingDiagnostics, scanSummaryOf } from './log-diagnostics';
import { appendGateProblems, formatAppendProblems } from './log-appending';

export { SurfaceRole } from './event-index';
export type { LineBeyondDamage } from './line-scanner';
export type { StrictSeedVerdict } from './verdict';

/** The logs this module made: a Proxy, or an object that only claims SessionLog's prototype, is none of them. */
const MADE = new WeakSet<object>();

/** True for a SessionLog this core made (not for a Proxy of one or a look-alike). Never throws. */
export function isSessionLog(value: unknown): value is SessionLog {
  return typeof value === 'object' && value !== null && MADE.has(value);
}

/** How a log reads, as its options said; a fork reads as its parent does. */
interface ReadSettings {
  readonly fileName: string;
  readonly named: NamedGeneration;
  readonly utf8Slicer: LoadOptions['utf8Slicer'];
  readonly provenanceEdges: boolean;
}

export class SessionLog implements SessionLogView, EventFacts {
  private readonly settings: ReadSettings;
  private readonly parts: LogParts;
  /** A fork's whole-log facts: its bytes read once more, only when asked for (see `facts`). */
  private forkFacts: SessionLog | undefined;
  /** Feeds the bytes to the parts (the readers' sink) and holds the format layer's reading of the file. */
  private readonly loader: LogLoader;
  private readonly verdictInputs: VerdictInputs;

  /** A log of `bytes` not read yet (`ingest` reads them; loadSession does both). Bytes that are not bytes give an empty, refused log. */
  constructor(bytes: Uint8Array, options?: LoadOptions);
  /** @internal A fork of `parent` (see `fork`): `bytes` and `options` are not read. */
  constructor(bytes: Uint8Array, options: LoadOptions, parent: SessionLog);
  constructor(bytes: Uint8Array, options: LoadOptions = {}, parent?: SessionLog) {
    MADE.add(this);
    if (parent) {
      this.settings = parent.settings;
      this.parts = forkLogParts(parent.parts);
    } else {
      const safe = isSafeLoadOptions(options) ? options : safeLoadOptions(options);
      this.settings = {
        fileName: safe.fileName ?? 'session.jsonl',
        // Without a name the header alone tells the generation (the default name is for messages only).
        named: namedGeneration(safe.fileName),
        utf8Slicer: safe.utf8Slicer,
        provenanceEdges: safe.provenanceEdges !== false,
      };
      const maxLineBytes = safe.limits?.maxLineBytes ?? DEFAULT_READ_LIMITS.maxLineBytes;
      this.parts = newLogParts(asBytes(bytes) ?? new Uint8Array(0), maxLineBytes, safe.utf8Slicer);
      this.parts.gathered = new LogFacts(this, this.parts.index.expectedEvents, this.settings.provenanceEdges);
    }
    const parts = this.parts;
    const { named, utf8Slicer, provenanceEdges } = this.settings;
    this.loader = new LogLoader(parts, named, utf8Slicer, () => new LogFacts(this, parts.index.expectedEvents, provenanceEdges));
    this.verdictInputs = verdictInputsOf(parts);
    if (!parent && !asBytes(bytes)) this.refuseInput(badInput('a session log needs its bytes (a Uint8Array)', bytes));
  }

  /**
   * A copy of this log to plan edits on: it shares the bytes and everything read from them so far
   * (nothing is read or parsed again; the index columns are copied, a few bytes per event) and folds
   * only what is appended to it. This log never sees the fork's appends, nor the fork this log's.
   */
  fork(): SessionLog {
    return new SessionLog(new Uint8Array(0), {}, this);
  }

  /**
   * Provenance and relational-invariant bookkeeping. A loaded log gathers it in the load's pass; a fork
   * (which planning reads only for the surface, the verdict and events) gathers it when first asked, by
   * reading its bytes once more, and then follows its appends.
   */
  get facts(): LogFacts {
    if (this.parts.gathered) return this.parts.gathered;
    const bytes = this.parts.scanner.bytes;
    if (!this.forkFacts) {
      const { fileName, provenanceEdges } = this.settings;
      this.forkFacts = new SessionLog(bytes.view(), { fileName, provenanceEdges });
      this.forkFacts.ingest();
    } else {
      const read = this.forkFacts.parts.scanner.bytes.length;
      if (read < bytes.length) this.forkFacts.extend(bytes.view(read));
    }
    return this.forkFacts.facts;
  }

  // ---- Loading (log-loader.ts): the scanner, or a later generation's format read, calls back for every kept line

  /** Reads the header and every complete line. `budgetMs` lets async callers yield between slices. */
  ingest(budgetMs = Infinity, onProgress?: (fraction: number) => void): boolean {
    const budget = typeof budgetMs === 'number' && budgetMs >= 0 ? budgetMs : Infinity;
    const progress = typeof onProgress === 'function' ? safeLoadOptions({ onProgress }).onProgress : undefined;
    return this.loader.ingest(budget, progress);
  }

  /**
   * Records a refusal found by the container (zstd framing) before the JSONL text was read:
   * dsh fails the read itself, so it is a header- or parse-stage refusal with dsh's message.
   */
  refuseContainer(stage: 'header' | 'parse', dshError: string, rule: string, detail: string, line?: number): void {
    this.parts.verdicts.refuse(stage, { dshError, errorName: 'Error', rule, line });
    this.parts.verdicts.report({ severity: 'error', rule, message: `${dshError} (${detail})`, line });
  }

  /**
   * The container has no complete header frame yet (a writer may still be writing it): refused as
   * header-less with the container's words until the header line arrives through `extend`.
   */
  awaitHeader(dshError: string, rule: string): void {
    this.parts.verdicts.headerless = { dshError, errorName: 'Error', rule, line: 1 };
  }

  /** The caller handed in something that is not a log at all: refused as the header stage. */
  refuseInput(problem: Diagnostic): void {
    this.parts.verdicts.refuse('header', { dshError: problem.message, errorName: 'Error', rule: problem.rule });
    this.parts.verdicts.report(problem);
  }

  /** A remark of the container (a torn final frame, skipped bytes) that does not change the verdict. */
  reportContainer(diagnostic: Diagnostic): void {
    this.parts.verdicts.report(diagnostic);
  }

  // ---- Verdict and summary

  get header(): SessionHeader | undefined {
    if (this.parts.generation) return generationHeader(this.parts.scanner.headerRead?.raw);
    return this.parts.scanner.headerRead?.header;
  }

  /**
   * The log's format: the version its header names and the generation its file name names (dsh
   * refuses a file whose two differ). A view words what a generation contains from the model, never
   * from this number; it is here to be shown.
   */
  get format(): { version: number | null; fileNameGeneration: number | null } {
    const raw = this.parts.scanner.headerRead?.raw as { version?: unknown } | undefined;
    const version = typeof raw?.version === 'number' ? raw.version : null;
    return { version, fileNameGeneration: this.settings.named.nameVersion ?? null };
  }

  /**
   * What today's dsh does when it opens this file: migrates it to the current format (the migrated
   * log's verdict and digest), or refuses, at which edge and why. Computed when first asked for.
   */
  upgradeRead(options: { digest?: boolean } = {}): FormatRead {
    return this.loader.upgradeRead(readField(options, 'digest') !== false);
  }

  /** The file migrated to generation `target` (and restored as it), as dsh's format layer reads it. */
  formRead(target: number): FormatRead {
    if (typeof target !== 'number' || !Number.isSafeInteger(target) || target < 0)
      return {
        verdict: { ok: false, stage: 'header', targetVersion: NaN, errorName: 'api.bad-input', reason: 'formRead needs a format version' },
      };
    return this.loader.formRead(target);
  }

  /** The inherited cut of a later generation's seeded log, as its own read found it. */
  get inheritedEventCount(): number | undefined {
    if (this.parts.generation) return this.parts.generation.inheritedEventCount;
    return this.header?.seedLength;
  }

  /**
   * The first line as parsed, even when dsh refuses it as a header (an older writer's header without
   * delegationDepth, a foreign version): a view can still say which session the file is.
   */
  get headerLine(): unknown {
    return this.parts.scanner.headerRead?.raw;
  }

  get eventCount(): number {
    return this.parts.index.count;
  }

  get upgradedSeqs(): number[] {
    return [...this.parts.index.upgraded.keys()];
  }

  get lastTurnOpen(): boolean {
    return this.parts.state.closerScan.turnOpen;
  }

  get scan(): ScanSummary {
    return scanSummaryOf(this.parts);
  }

  get verdict(): Verdict {
    if (this.parts.generation) return this.parts.generation.verdict;
    return this.parts.verdicts.verdict(this.verdictInputs);
  }

  /** What dsh's strict constructor (replay/fork path) says of the same seed: events in order, then closers, then the header. */
  get strictSeed(): StrictSeedVerdict {
    return this.parts.verdicts.strictSeed(this.verdictInputs, this.parts.index);
  }

  /** Readable lines after the first damaged line, among the first 10,000 after it (see LineScanner). */
  get linesBeyondDamage(): { count: number; lines: readonly LineBeyondDamage[]; more: boolean } {
    return this.parts.scanner.linesBeyondDamage;
  }

  /** What reading found: damage, refusals, lossy numbers, the torn tail (not the whole-log facts of `facts`). */
  get diagnostics(): Diagnostic[] {
    return readingDiagnostics(this.parts, () => this.verdict);
  }

  // ---- Events (kept events from the index; closers, in memory only, after them): see log-lookup.ts

  eventType(seq: number): string | undefined {
    return eventTypeAt(this.parts, seq);
  }

  turn(seq: number): number | undefined {
    return turnAt(this.parts, seq);
  }

  step(seq: number): number | undefined {
    return stepAt(this.parts, seq);
  }

  /** Closers: only the tool/result ones join the surface (as appends). */
  surfaceRole(seq: number): SurfaceRole {
    return surfaceRoleAt(this.parts, seq);
  }

  place(seq: number): EventPlace | undefined {
    return placeAt(this.parts, seq);
  }

  /**
   * One event, parsed again from its line: each call returns a fresh object, so a caller can never
   * change what the core holds. Upgraded events and closers are few and kept frozen.
   */
  event(seq: number): SessionEvent | undefined {
    return eventAt(this.parts, seq);
  }

  /** The raw text of the line an event came from. */
  lineText(seq: number): string | undefined {
    return lineTextAt(this.parts, seq);
  }

  // ---- Closers and surfaces

  /**
   * Whether dsh knows events of `type` in this log's generation. A later generation's vocabulary is
   * closed (its format layer refuses a type outside it), so every event such a log kept is known.
   */
  knowsType(type: string): boolean {
    return this.parts.generation !== undefined || KNOWN_EVENT_TYPES.has(type);
  }

  /** How events are written into this log: its generation's marker spelling, sources and lines. */
  get writing(): LogWriting {
    return writingOf(this.parts.generation?.version ?? 0);
  }

  /**
   * The protected system head (v3 and on): the first surface node when it is a system/message. No
   * ordinary replacement or compaction may shadow it; only a system/message covering exactly it.
   */
  protectedHead(): number | undefined {
    if (!this.parts.state.fold.rules.protectedSystemHead) return undefined;
    const head = this.surface()[0];
    return head !== undefined && this.eventType(head) === 'system/message' ? head : undefined;
  }

  get closers(): SessionEvent[] {
    return this.parts.state.closers;
  }

  /** Events of the constructed session: kept events, closers, and the end-seed marker dsh appends. */
  get sessionEventCount(): number {
    const closers = this.closers;
    const lastType = closers.length > 0 ? closers[closers.length - 1].type : this.eventType(this.eventCount - 1);
    return this.eventCount + closers.length + (lastType === 'session/end-seed' ? 0 : 1);
  }

  surface(): readonly number[] {
    return this.parts.state.surface();
  }

  replaceGeneration(): number {
    return this.parts.state.fold.replaceGeneration;
  }

  replacements(): readonly Replacement[] {
    return this.parts.state.replacements();
  }

  /** The surface after the closers dsh would append (equal to surface() when the last turn is closed). */
  repairedSurface(): readonly number[] {
    return this.parts.state.repaired().fold.nodes;
  }

  repairedReplacements(): readonly Replacement[] {
    return this.parts.state.repaired().fold.replacements;
  }

  repairedReplaceGeneration(): number {
    return this.parts.state.repaired().fold.replaceGeneration;
  }

  /** The messages the model sees (of the current surface, or of the given nodes; nodes that are not seqs of this log give none). */
  deriveMessages(nodes?: readonly number[]): DerivedMessage[] {
    if (nodes === undefined) return this.parts.state.deriveMessages();
    const seqs = asSeqList(nodes, this.eventCount + this.closers.length);
    return seqs === undefined ? [] : this.parts.state.deriveMessages(seqs);
  }

  balancedCuts(nodes?: readonly number[]): BalanceResult {
    if (nodes === undefined) return this.parts.state.balancedCuts();
    const seqs = asSeqList(nodes, this.eventCount + this.closers.length);
    return seqs === undefined ? { error: 'balancedCuts needs an array of seqs of this log' } : this.parts.state.balancedCuts(seqs);
  }

  transcript(): number[] {
    return this.parts.state.transcript();
  }

  // ---- Appending: plan against the current state (log-appending.ts), commit only what passes

  /**
   * Checks a batch as dsh's append would, each event against the state the previous ones leave.
   * Mutates nothing. Returns the problems; an empty list means the batch may be appended.
   */
  planAppend(input: readonly (NewEvent | WidenedEvent)[]): Diagnostic[] {
    const events = plainEvents(input);
    if (!Array.isArray(events)) return [events];
    const problems = appendGateProblems(this.parts, events, () => this.verdict);
    if (problems.length > 0 || !this.parts.generation) return problems;
    return formatAppendProblems(events, this.writing, (bytes) => {
      const fork = this.fork();
      fork.parts.scanner.bytes.append(bytes);
      fork.ingest();
      return fork.verdict;
    });
  }

  /**
   * Appends a batch in memory: planned first, then committed through the same path as bytes a writer
   * appends. Returns the problems and leaves the session untouched when any event is refused.
   */
  append(input: readonly (NewEvent | WidenedEvent)[]): { ok: true; lines: string[] } | { ok: false; problems: Diagnostic[] } {
    // Checked and written from one copy, so a getter cannot show the check one value and the writer another.
    const events = plainEvents(input);
    if (!Array.isArray(events)) return { ok: false, problems: [events] };
    const problems = this.planAppend(events);
    if (problems.length > 0) return { ok: false, problems };
    const writing = this.writing;
    const lines = events.map((e) => writing.line(e as unknown as SessionEvent));
    this.parts.scanner.bytes.append(new TextEncoder().encode(lines.map((l) => l + '\n').join('')));
    this.ingest();
    return { ok: true, lines };
  }

  // ---- Following a growing file

  extend(input: Uint8Array): ExtendResult {
    const appended = asBytes(input);
    if (!appended) return { added: 0, diagnostics: [badInput('extend needs the appended bytes (a Uint8Array)', input)] };
    const before = this.eventCount;
    const diagnosticsBefore = this.parts.verdicts.diagnostics.length;
    this.parts.scanner.bytes.append(appended);
    this.ingest();
    // Read after ingest: a later generation's refused first read starts its findings again.
    return { added: this.eventCount - before, diagnostics: this.parts.verdicts.diagnostics.slice(diagnosticsBefore) };
  }

  /** Byte offset up to which complete lines have been read (the rest is a torn or growing tail). */
  get scannedBytes(): number {
    return this.parts.scanner.scannedBytes;
  }

  get name(): string {
    return this.settings.fileName;
  }
}
