// A loaded dsh session log. It reads the bytes in one pass and reaches dsh's verdict in dsh's stage
// order (header, parse, adopt, known-types, closers, seed), while keeping a compact view of
// everything that could be read. This file is the conductor: the line scanner finds and parses lines,
// each kept event runs through the stages once, the event index records its facts, the surface state
// folds it, and the whole-log facts (provenance, relational invariants) take it in the same pass.
import type { DerivedMessage, ExtendResult, LoadOptions, SessionLogView } from '../api';
import { DEFAULT_READ_LIMITS } from '../api';
import type { Diagnostic, EventPlace, RelatedPlace, Replacement, ScanSummary, SessionEvent, SessionHeader, Verdict } from '../types';
import { validateHeader, type HeaderRead } from './header';
import { LegacyRefusal, eventMessageId, upgradeLegacyEvent } from './legacy';
import { checkMessageShape, checkSeedEnvelope } from './event-shape';
import { KNOWN_TYPE_COUNT, TypeId } from './known-types';
import { RepairTypeError } from '../surface/repair';
import { SurfaceError, type SurfacePlan } from '../surface/surface';
import { toolCallCount, type BalanceResult } from '../surface/projections';
import { SurfaceState, deepFreeze } from '../surface/surface-state';
import type { NewEvent, WidenedEvent } from '../plan/append-types';
import { writingOf, type LogWriting } from './log-writing';
import { markerEndpoints } from '../vocabulary/surface-marker';
import { CURRENT_FORMAT_VERSION } from '../format/generations';
import { planAppend } from '../plan/append-gate';
import { EventIndex, SurfaceRole, type EventFacts } from './event-index';
import { LineScanner, type LineBeyondDamage, type LineSink } from './line-scanner';
import { VerdictKeeper, type Refusal, type StrictSeedVerdict, type VerdictInputs } from './verdict';
import { LogFacts } from '../check/log-facts';
import {
  GenerationReading,
  expandStoredRanges,
  generationHeader,
  type GenerationReadOptions,
  type GenerationSink,
} from './generation-reading';
import { surfaceRulesOf } from '../surface/surface-rules';
import type { FormatRead } from '../format/catalog';
import { parseGenerationFileName } from '../format/filename';
import { stringText, valueText } from '../value-text';
import { plainEvents } from '../plan/plain-events';
import { asBytes, asSeq, asSeqList, badInput, isSafeLoadOptions, readField, safeLoadOptions } from '../api-guard';
import { say, type Said } from '../words';

export { SurfaceRole } from './event-index';
export type { LineBeyondDamage } from './line-scanner';
export type { StrictSeedVerdict } from './verdict';

/** The logs this module made: a Proxy, or an object that only claims SessionLog's prototype, is none of them. */
const MADE = new WeakSet<object>();

/** True for a SessionLog this core made (not for a Proxy of one or a look-alike). Never throws. */
export function isSessionLog(value: unknown): value is SessionLog {
  return typeof value === 'object' && value !== null && MADE.has(value);
}

export class SessionLog implements SessionLogView, EventFacts, LineSink, GenerationSink {
  private readonly fileName: string;
  private readonly scanner: LineScanner;
  // Not readonly: a later generation's refused first read starts them again (see `forgetDecoded`).
  private index: EventIndex;
  private verdicts: VerdictKeeper;
  private state: SurfaceState;
  /** Provenance and relational-invariant bookkeeping, gathered in the load's pass (not by a fork: see `facts`). */
  private gathered: LogFacts | undefined;
  /** A fork's whole-log facts: its bytes read once more, only when asked for (see `facts`). */
  private forkFacts: SessionLog | undefined;
  private readonly provenanceEdges: boolean;
  private headerSeedError: string | undefined;
  /** Set when the header names a later generation (v1 and on): dsh's format layer reads the file. */
  private generation: GenerationReading | undefined;
  /** Where the fold disagreed with an event the format layer kept (none when the two agree). */
  private readonly foldProblems: Diagnostic[] = [];
  private readonly utf8Slicer: LoadOptions['utf8Slicer'];
  /** The generation the file's name names, if it names one. */
  private readonly nameVersion: number | undefined;
  /** The generation the file's name names when it is a name dsh itself reads (`session.v4.jsonl`). */
  private readonly canonicalNameVersion: number | undefined;
  /** A v0 log's reading by the format layer, made when today's dsh's verdict is first asked for. */
  private upgradeReading: GenerationReading | undefined;
  /** The findings as the header left them, while a later generation's first read hands its events on. */
  private verdictsBeforeDecoding: VerdictKeeper | undefined;
  private readonly verdictInputs: VerdictInputs;
  // Bound once: the stages call them per event.
  private readonly lookup = (seq: number) => this.event(seq);
  private readonly messageIdAt = (seq: number) => this.messageIdOf(seq);

  /** A log of `bytes` not read yet (`ingest` reads them; loadSession does both). Bytes that are not bytes give an empty, refused log. */
  constructor(bytes: Uint8Array, options?: LoadOptions);
  /** @internal A fork of `parent` (see `fork`): `bytes` and `options` are not read. */
  constructor(bytes: Uint8Array, options: LoadOptions, parent: SessionLog);
  constructor(bytes: Uint8Array, options: LoadOptions = {}, parent?: SessionLog) {
    MADE.add(this);
    if (!parent) options = isSafeLoadOptions(options) ? options : safeLoadOptions(options);
    this.fileName = parent ? parent.fileName : (options.fileName ?? 'session.jsonl');
    // Without a name the header alone tells the generation (the default name is for messages only).
    const named = parent ? undefined : options.fileName;
    this.nameVersion = parent ? parent.nameVersion : named === undefined ? undefined : generationOfName(baseName(named));
    this.canonicalNameVersion = parent
      ? parent.canonicalNameVersion
      : named === undefined
        ? undefined
        : parseGenerationFileName(baseName(named))?.version;
    this.utf8Slicer = parent ? parent.utf8Slicer : options.utf8Slicer;
    this.provenanceEdges = parent ? parent.provenanceEdges : options.provenanceEdges !== false;
    this.scanner = parent
      ? parent.scanner.fork()
      : new LineScanner(
          asBytes(bytes) ?? new Uint8Array(0),
          options.limits?.maxLineBytes ?? DEFAULT_READ_LIMITS.maxLineBytes,
          options.utf8Slicer,
        );
    this.index = parent ? parent.index.fork(this.scanner.bytes) : new EventIndex(this.scanner.bytes);
    this.verdicts = new VerdictKeeper(parent?.verdicts);
    this.state = new SurfaceState(this.index, () => this.verdicts.has('closers'), parent?.state);
    this.headerSeedError = parent?.headerSeedError;
    this.gathered = parent ? undefined : new LogFacts(this, this.index.expectedEvents, this.provenanceEdges);
    if (parent?.generation) {
      const reading = parent.generation.fork();
      this.generation = reading;
      this.index.storedEvent = parent.index.storedEvent;
      if (parent.state.closerSource) this.state.closerSource = () => reading.closers ?? [];
    }
    const self = this;
    this.verdictInputs = {
      get headerRead() {
        return self.scanner.headerRead !== undefined;
      },
      get sessionId() {
        return self.sessionId;
      },
      get headerSeedError() {
        return self.headerSeedError;
      },
      closerRefusal: () => this.state.repaired().closerRefusal,
      closerCrash: () => this.state.repaired().closerCrash,
    };
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
    if (this.gathered) return this.gathered;
    const bytes = this.scanner.bytes;
    if (!this.forkFacts) {
      this.forkFacts = new SessionLog(bytes.view(), { fileName: this.fileName, provenanceEdges: this.provenanceEdges });
      this.forkFacts.ingest();
    } else {
      const read = this.forkFacts.scanner.bytes.length;
      if (read < bytes.length) this.forkFacts.extend(bytes.view(read));
    }
    return this.forkFacts.facts;
  }

  // ======================================================================================
  // Loading: the scanner calls back for every kept line
  // ======================================================================================

  /** Reads the header and every complete line. `budgetMs` lets async callers yield between slices. */
  ingest(budgetMs = Infinity, onProgress?: (fraction: number) => void): boolean {
    const budget = typeof budgetMs === 'number' && budgetMs >= 0 ? budgetMs : Infinity;
    const progress = typeof onProgress === 'function' ? safeLoadOptions({ onProgress }).onProgress : undefined;
    if (!this.scanner.readHeaderFirst(this)) return true;
    if (this.generation) {
      this.verdictsBeforeDecoding = this.eventCount === 0 ? new VerdictKeeper(this.verdicts) : undefined;
      this.generation.readInto(this.scanner.bytes.view(), this);
      this.verdictsBeforeDecoding = undefined;
      this.scanner.committed = this.scanner.bytes.length - this.tornTailBytes();
      progress?.(1);
      return true;
    }
    return this.scanner.scan(this, budget, progress);
  }

  /**
   * dsh refused a later generation's log after its first read had handed the events on as they were
   * decoded: like dsh's read, the model keeps none of them. The index, fold, facts and findings start
   * again from where the header left them.
   */
  forgetDecoded(): void {
    const reading = this.generation;
    if (!reading || !this.verdictsBeforeDecoding) return;
    this.verdicts = this.verdictsBeforeDecoding;
    this.index = new EventIndex(this.scanner.bytes);
    this.state = new SurfaceState(this.index, () => this.verdicts.has('closers'));
    if (this.gathered) this.gathered = new LogFacts(this, this.index.expectedEvents, this.provenanceEdges);
    this.foldProblems.length = 0;
    this.readAsGeneration(reading);
  }

  /** The fold and the index take a later generation's events as its rules and rows have them. */
  private readAsGeneration(reading: GenerationReading): void {
    this.state.useRules(surfaceRulesOf(reading.version));
    if (reading.version >= CURRENT_FORMAT_VERSION) this.state.closerSource = () => reading.closers ?? [];
    this.index.storedEvent = reading.version >= 1 ? expandStoredRanges : undefined;
  }

  private generationOptions(): GenerationReadOptions {
    return { utf8Slicer: this.utf8Slicer, canonicalNameVersion: this.canonicalNameVersion };
  }

  /** Bytes after the last newline of a later generation's text (a torn tail dsh does not read). */
  private tornTailBytes(): number {
    const bytes = this.scanner.bytes;
    const last = bytes.length > 0 ? bytes.view().lastIndexOf(0x0a) : -1;
    return bytes.length - (last + 1);
  }

  keepHeader(read: HeaderRead): void {
    const version = generationToRead(read.raw, this.nameVersion);
    if (version !== undefined) {
      this.generation = new GenerationReading(version, this.generationOptions());
      this.readAsGeneration(this.generation);
      return;
    }
    const problem = read.problem;
    if (problem) {
      this.verdicts.refuse('header', {
        dshError: problem.message,
        errorName: problem.unsupported ? 'SessionFormatUnsupportedError' : 'Error',
        rule: problem.rule,
        line: 1,
      });
    } else if (read.header) {
      this.headerSeedError = validateHeader(read.header);
      if (this.headerSeedError)
        this.verdicts.refuse('seed', { dshError: this.headerSeedError, errorName: 'Error', rule: 'header.session-fields', line: 1 });
    }
  }

  /**
   * Records a refusal found by the container (zstd framing) before the JSONL text was read:
   * dsh fails the read itself, so it is a header- or parse-stage refusal with dsh's message.
   */
  refuseContainer(stage: 'header' | 'parse', dshError: string, rule: string, detail: string, line?: number): void {
    this.verdicts.refuse(stage, { dshError, errorName: 'Error', rule, line });
    this.verdicts.report({ severity: 'error', rule, message: `${dshError} (${detail})`, line });
  }

  /**
   * The container has no complete header frame yet (a writer may still be writing it): refused as
   * header-less with the container's words until the header line arrives through `extend`.
   */
  awaitHeader(dshError: string, rule: string): void {
    this.verdicts.headerless = { dshError, errorName: 'Error', rule, line: 1 };
  }

  /** The caller handed in something that is not a log at all: refused as the header stage. */
  refuseInput(problem: Diagnostic): void {
    this.verdicts.refuse('header', { dshError: problem.message, errorName: 'Error', rule: problem.rule });
    this.verdicts.report(problem);
  }

  /** A remark of the container (a torn final frame, skipped bytes) that does not change the verdict. */
  reportContainer(diagnostic: Diagnostic): void {
    this.verdicts.report(diagnostic);
  }

  get expectedSeq(): number {
    return this.index.count;
  }

  refuse(stage: Parameters<LineSink['refuse']>[0], refusal: Refusal): void {
    this.verdicts.refuse(stage, refusal);
  }

  hasRefusal(stage: Parameters<LineSink['hasRefusal']>[0]): boolean {
    return this.verdicts.has(stage);
  }

  report(d: Diagnostic): void {
    this.verdicts.report(d);
  }

  private get sessionId(): string {
    return this.scanner.headerRead?.header?.id ?? '';
  }

  /** Runs one kept event through adopt, known-types, the closer scan and the seed, and indexes it. */
  keepEvent(stored: Record<string, unknown>, text: string, fileLine: number, offset: number, length: number): void {
    const seq = this.index.count;
    const id = this.sessionId;
    const verdicts = this.verdicts;
    // The type is looked up once; the stages below switch on its number.
    let typeId = this.index.typeIdOf(stored.type);
    // The retired shapes are request/header and two types this reader does not know.
    if (typeId === TypeId.RequestHeader || typeId >= KNOWN_TYPE_COUNT) verdicts.retired.observe(stored);

    // adopt: upgrade legacy shapes, then check message shapes.
    let event = stored as unknown as SessionEvent;
    // Set once adopt has checked the message shape (pass or fail): the seed step does not check or
    // report the same shape again. (When adopt refuses, the seed's verdict no longer matters.)
    let shapeChecked = true;
    if (adoptMayChange(typeId)) {
      shapeChecked = false;
      try {
        event = upgradeLegacyEvent(event, id, this.messageIdAt);
        if (event !== (stored as unknown)) typeId = this.index.typeIdOf(event.type);
        const shape = isMessageType(typeId)
          ? checkMessageShape(event as unknown as Record<string, unknown>, 'session event at seq', seq)
          : undefined;
        shapeChecked = true;
        if (shape)
          verdicts.problem('adopt', {
            dshError: shape.message,
            errorName: 'Error',
            rule: shape.rule,
            line: fileLine,
            seq,
            related: this.callContext(event),
          });
      } catch (error) {
        if (error instanceof LegacyRefusal)
          verdicts.problem('adopt', { dshError: error.message, errorName: 'Error', rule: error.rule, line: fileLine, seq });
        else this.internalProblem(error, fileLine, seq);
      }
      if (event !== (stored as unknown)) this.index.upgraded.set(seq, deepFreeze(event));
    }

    // known-types
    const type = event.type;
    if (typeId >= KNOWN_TYPE_COUNT && event.ignorable !== true) {
      verdicts.problem('known-types', {
        dshError: `session "${id}" contains event type "${stringText(type)}" (seq ${seq}) unknown to this harness and not marked ignorable; refusing to interpret the log — it was likely written by a newer harness`,
        errorName: 'SessionFormatUnsupportedError',
        rule: 'vocabulary.unknown-types',
        line: fileLine,
        seq,
      });
    }

    // closers: the repair scan
    try {
      this.state.closerScan.observe(event, typeId);
    } catch (error) {
      if (error instanceof RepairTypeError)
        verdicts.problem('closers', { dshError: error.message, errorName: 'TypeError', rule: 'envelope.null-data', line: fileLine, seq });
      else this.internalProblem(error, fileLine, seq);
    }

    // seed: envelope, shapes, surface
    const role = this.seedEvent(event, seq, fileLine, shapeChecked);
    const data = event.data as { turn?: unknown; step?: unknown } | null;
    const turn = data?.turn;
    const step = data?.step;
    const toolCalls = typeId === TypeId.AssistantMessage ? toolCallCount(event) : 0;
    this.index.pushEvent(typeId, turn, step, toolCalls, role, fileLine, offset, length);
    verdicts.noteLine(stored, seq, seq + 1);
    // The facts take the turn and step as turn() and step() give them: numbers, else undefined.
    this.gathered?.observeEvent(seq, event, typeId, numberOrUndefined(turn), numberOrUndefined(step), role);
  }

  /**
   * One event a later generation's format read kept, with its place: indexed, folded into the surface
   * and handed to the whole-log facts like a v0 event, without v0's verdict stages (dsh's format layer
   * gave the verdict). Members of a v1 packed row arrive one by one with their index in the row.
   */
  keepDecoded(event: SessionEvent, fileLine: number, offset: number, length: number, member: number): void {
    const seq = this.index.count;
    if (member > 0) return; // the row's first member indexed the whole row
    if (member === 0) return this.keepDecodedRow(fileLine, offset, length);
    const typeId = this.index.typeIdOf(event.type);
    try {
      this.state.closerScan.observe(event, typeId);
    } catch (error) {
      this.internalProblem(error, fileLine, seq);
    }
    let role = SurfaceRole.None;
    const fold = this.state.fold;
    try {
      const plan = fold.plan(event, seq, this.lookup);
      fold.apply(plan);
      role = plan === undefined ? SurfaceRole.None : plan.kind === 'append' ? SurfaceRole.Append : SurfaceRole.Replace;
    } catch (error) {
      this.foldProblems.push({
        severity: 'warning',
        rule: error instanceof SurfaceError ? error.rule : 'surface.marker-shape',
        ...say('the surface cannot take seq {0}: {1}', seq, error instanceof Error ? error.message : valueText(error)),
        line: fileLine,
        seq,
      });
    }
    const data = event.data as { turn?: unknown; step?: unknown } | null;
    const toolCalls = typeId === TypeId.AssistantMessage ? toolCallCount(event) : 0;
    this.index.pushEvent(typeId, data?.turn, data?.step, toolCalls, role, fileLine, offset, length);
    this.gathered?.observeEvent(seq, event, typeId, numberOrUndefined(data?.turn), numberOrUndefined(data?.step), role);
  }

  /** A v1 packed chunk row, read again from its line (v1 keeps v0's physical rows). */
  private keepDecodedRow(fileLine: number, offset: number, length: number): void {
    const row = JSON.parse(this.scanner.bytes.text(offset, offset + length)) as Record<string, any>;
    const members = Array.isArray(row.data?.texts) ? row.data.texts.length : Array.isArray(row.data?.args) ? row.data.args.length : 0;
    if (members > 0) this.keepRow(row, members, '', fileLine, offset, length);
  }

  /**
   * Members of a validated row are well-formed `assistant/chunk` events by construction: known type,
   * safe-integer seq and time, no surface metadata, nothing the repair scan reads. So they skip the
   * per-event pipeline (most events of a real log are chunks) and only get indexed.
   */
  keepRow(row: Record<string, any>, members: number, text: string, fileLine: number, offset: number, length: number): void {
    const seq0 = this.index.count;
    const data = row.data;
    let lastTime = row.time0 as number;
    const dt = data.dt as number[];
    for (let i = 0; i < dt.length; i++) lastTime += dt[i];
    this.state.closerScan.observeTime(seq0 + members - 1, lastTime);
    this.index.pushRow(data.turn, data.step, members, fileLine, offset, length);
    this.verdicts.noteRow(row, seq0, seq0 + members);
    this.gathered?.observeRow(seq0, row, members);
  }

  /** The seed step for one event; returns its surface role. After a seed refusal the fold goes on leniently. */
  private seedEvent(event: SessionEvent, seq: number, fileLine: number, messageShapeChecked: boolean): SurfaceRole {
    const envelope = checkSeedEnvelope(event as unknown as Record<string, unknown>, seq, messageShapeChecked);
    if (envelope) {
      this.verdicts.seedProblem({ dshError: envelope.message, errorName: 'Error', rule: envelope.rule, line: fileLine, seq });
      return SurfaceRole.None;
    }
    const fold = this.state.fold;
    let plan: SurfacePlan | undefined;
    try {
      plan = fold.plan(event, seq, this.lookup);
    } catch (error) {
      // An engine limit (a RangeError: the stack, a string's length) is ours, never dsh's verdict.
      if (error instanceof RangeError) {
        this.internalProblem(error, fileLine, seq);
        return SurfaceRole.None;
      }
      const message = error instanceof Error ? error.message : valueText(error);
      const rule = error instanceof SurfaceError ? error.rule : 'surface.marker-shape';
      this.verdicts.seedProblem({
        dshError: `invalid seed event at index ${seq}: ${message}`,
        errorName: 'Error',
        rule,
        line: fileLine,
        seq,
        related: this.surfaceContext(event, rule),
      });
      return SurfaceRole.None;
    }
    fold.apply(plan);
    return plan === undefined ? SurfaceRole.None : plan.kind === 'append' ? SurfaceRole.Append : SurfaceRole.Replace;
  }

  /**
   * For a tool/result refused for its shape: the tool/calls its ids name, found by walking back over
   * earlier tool/call events (an error path only, so no index is kept for it).
   */
  private callContext(event: SessionEvent): RelatedPlace[] | undefined {
    if (event.type !== 'tool/result') return undefined;
    const message = event.data?.message;
    const named = new Map<string, Said>();
    if (typeof message?.source?.callId === 'string') named.set(message.source.callId, say("the call this result's source names"));
    const blockId = Array.isArray(message?.content) ? message.content[0]?.toolCallId : undefined;
    if (typeof blockId === 'string' && !named.has(blockId)) named.set(blockId, say('the call its tool-result block answers'));
    const related: RelatedPlace[] = [];
    let looked = 0;
    for (let seq = this.eventCount - 1; seq >= 0 && named.size > 0 && looked < 10_000; seq--) {
      if (this.eventType(seq) !== 'tool/call') continue;
      looked += 1;
      const callId = this.event(seq)?.data?.callId;
      const label = named.get(callId);
      if (label === undefined) continue;
      related.push({ ...this.place(seq), seq, ...say('{0}: tool/call {1}', label, valueText(callId)) });
      named.delete(callId);
    }
    for (const [callId, label] of named) related.push(say('{0} ({1}) has no earlier tool/call', label, valueText(callId)));
    return related.length > 0 ? related : undefined;
  }

  /** Where a refused replace points: the nodes it targets, where a missing endpoint went, what it fails to cite. */
  private surfaceContext(event: SessionEvent, rule: string): RelatedPlace[] | undefined {
    const op = event.surfaceOp;
    if (typeof op !== 'object' || op === null) return undefined;
    const fold = this.state.fold;
    const nodes = fold.nodes;
    const at = (seq: number, message: Said): RelatedPlace => ({ ...this.place(seq), seq, ...message });
    const related: RelatedPlace[] = [];
    const { start, end } = markerEndpoints(op);
    for (const endpoint of [start, end]) {
      if (typeof endpoint !== 'number' || nodes.includes(endpoint) || endpoint >= this.eventCount) continue;
      const shadowedBy = fold.replacements.find((r) => r.shadowedSeqs.includes(endpoint));
      if (shadowedBy) related.push(at(shadowedBy.seq, say('seq {0} left the surface here: this event replaced it', endpoint)));
      else related.push(at(endpoint, say('seq {0} is a {1}, not a surface node', endpoint, String(this.eventType(endpoint)))));
    }
    const startIdx = nodes.indexOf(start as number);
    const endIdx = nodes.indexOf(end as number);
    if (startIdx >= 0 && endIdx >= startIdx) {
      const shadowed = nodes.slice(startIdx, endIdx + 1);
      const cited = new Set(Array.isArray(event.sourceEventSeqs) ? event.sourceEventSeqs : []);
      for (const seq of shadowed.slice(0, 5)) {
        if (rule.startsWith('toolresult-rewrite'))
          related.push(at(seq, say('the {0} this replacement targets', String(this.eventType(seq)))));
        else if (rule === 'replace.sources-cover-shadowed' && !cited.has(seq))
          related.push(at(seq, say('shadowed here but not cited in sourceEventSeqs')));
      }
    }
    return related.length > 0 ? related : undefined;
  }

  /**
   * Reading never throws on bad input: a shape no rule anticipated is reported on its line (so it can
   * be fixed) and the scan goes on.
   */
  private internalProblem(error: unknown, line: number, seq: number): void {
    this.verdicts.report({
      severity: 'warning',
      rule: 'reader.unexpected-shape',
      ...say('seq {0} has a shape the reader did not expect: {1}', seq, error instanceof Error ? error.message : valueText(error)),
      line,
      seq,
    });
  }

  /** The message id an earlier event carries, read again from its line (rare: legacy replacements only). */
  private messageIdOf(seq: number): string | undefined {
    if (seq < 0 || seq >= this.eventCount) return undefined;
    const event = this.event(seq);
    return event ? eventMessageId(event) : undefined;
  }

  // ======================================================================================
  // Verdict and summary
  // ======================================================================================

  get header(): SessionHeader | undefined {
    if (this.generation) return generationHeader(this.scanner.headerRead?.raw);
    return this.scanner.headerRead?.header;
  }

  /**
   * The log's format: the version its header names and the generation its file name names (dsh
   * refuses a file whose two differ). A view words what a generation contains from the model, never
   * from this number; it is here to be shown.
   */
  get format(): { version: number | null; fileNameGeneration: number | null } {
    const raw = this.scanner.headerRead?.raw as { version?: unknown } | undefined;
    const version = typeof raw?.version === 'number' ? raw.version : null;
    return { version, fileNameGeneration: this.nameVersion ?? null };
  }

  /**
   * What today's dsh does when it opens this file: migrates it to the current format (the migrated
   * log's verdict and digest), or refuses, at which edge and why. Computed when first asked for.
   */
  upgradeRead(options: { digest?: boolean } = {}): FormatRead {
    const text = this.scanner.bytes.view();
    if (!this.generation) this.upgradeReading ??= new GenerationReading(0, this.generationOptions());
    return (this.generation ?? this.upgradeReading!).upgrade(text, readField(options, 'digest') !== false);
  }

  /** The file migrated to generation `target` (and restored as it), as dsh's format layer reads it. */
  formRead(target: number): FormatRead {
    if (typeof target !== 'number' || !Number.isSafeInteger(target) || target < 0)
      return {
        verdict: { ok: false, stage: 'header', targetVersion: NaN, errorName: 'api.bad-input', reason: 'formRead needs a format version' },
      };
    if (!this.generation) this.upgradeReading ??= new GenerationReading(0, this.generationOptions());
    return (this.generation ?? this.upgradeReading!).readAs(this.scanner.bytes.view(), target);
  }

  /** The inherited cut of a later generation's seeded log, as its own read found it. */
  get inheritedEventCount(): number | undefined {
    if (this.generation) return this.generation.inheritedEventCount;
    return this.header?.seedLength;
  }

  /**
   * The first line as parsed, even when dsh refuses it as a header (an older writer's header without
   * delegationDepth, a foreign version): a view can still say which session the file is.
   */
  get headerLine(): unknown {
    return this.scanner.headerRead?.raw;
  }

  get eventCount(): number {
    return this.index.count;
  }

  get upgradedSeqs(): number[] {
    return [...this.index.upgraded.keys()];
  }

  get lastTurnOpen(): boolean {
    return this.state.closerScan.turnOpen;
  }

  get scan(): ScanSummary {
    const bytes = this.scanner.bytes;
    const fileBytes = bytes.length;
    const committed = this.scanner.committed;
    const summary: ScanSummary = {
      fileBytes,
      committedBytes: committed,
      endsWithNewline: fileBytes > 0 && bytes.at(fileBytes - 1) === 0x0a,
      packedRows: this.scanner.packedRows,
    };
    if (committed < fileBytes) summary.stoppedAt = this.scanner.damage?.message ?? 'torn-tail';
    return summary;
  }

  /** A later generation's torn tail: the bytes after the last newline, which dsh does not read. */
  private tornTailNotes(): Diagnostic[] {
    const torn = this.tornTailBytes();
    if (torn === 0) return [];
    const offset = this.scanner.bytes.length - torn;
    return [
      {
        severity: 'info',
        rule: 'jsonl.torn-tail',
        ...say('the final {0} bytes have no newline yet: a torn tail dsh ignores, or a line still being written', torn),
        offset,
      },
    ];
  }

  get verdict(): Verdict {
    if (this.generation) return this.generation.verdict;
    return this.verdicts.verdict(this.verdictInputs);
  }

  /** What dsh's strict constructor (replay/fork path) says of the same seed: events in order, then closers, then the header. */
  get strictSeed(): StrictSeedVerdict {
    return this.verdicts.strictSeed(this.verdictInputs, this.index);
  }

  /** Readable lines after the first damaged line, among the first 10,000 after it (see LineScanner). */
  get linesBeyondDamage(): { count: number; lines: readonly LineBeyondDamage[]; more: boolean } {
    return this.scanner.linesBeyondDamage;
  }

  /** What reading found: damage, refusals, lossy numbers, the torn tail (not the whole-log facts of `facts`). */
  get diagnostics(): Diagnostic[] {
    if (this.generation) return [...this.generation.diagnostics, ...this.foldProblems, ...this.tornTailNotes()];
    const out = [...this.verdicts.diagnostics, ...this.verdicts.lossyWarnings(this.index)];
    const verdict = this.verdict;
    const scan = this.scan;
    const damage = this.scanner.damage;
    if (this.scanner.stoppedByLimit) {
      // The limit's own diagnostic says where reading stopped.
    } else if (scan.stoppedAt === 'torn-tail') {
      const line = this.scanner.linesRead + 2;
      out.push({
        severity: 'info',
        rule: 'jsonl.torn-tail',
        ...say(
          'the final {0} bytes (line {1}) have no newline yet: a torn tail dsh ignores, or a line still being written',
          scan.fileBytes - scan.committedBytes,
          line,
        ),
        line,
        offset: scan.committedBytes,
      });
    } else if (scan.stoppedAt && verdict.ok) {
      const beyond = this.scanner.linesBeyondDamage;
      // Only the first 10,000 lines after the damage are read in full: past them, "at least".
      const count = beyond.more ? `${beyond.count}+` : beyond.count;
      out.push({
        severity: 'warning',
        rule: 'jsonl.damaged-line',
        ...(count !== 0
          ? say(
              'dsh keeps only the events before line {0} ({1} readable line(s) after it are dropped); a writable open would truncate the file at byte {2}',
              String(damage?.line),
              count,
              scan.committedBytes,
            )
          : say(
              'dsh keeps only the events before line {0}; a writable open would truncate the file at byte {1}',
              String(damage?.line),
              scan.committedBytes,
            )),
        line: damage?.line,
        offset: damage?.offset,
      });
    }
    if (!verdict.ok) {
      const refusing = out.find((d) => d.severity === 'error' && d.line === verdict.line && d.rule === verdict.rule);
      if (refusing)
        out[out.indexOf(refusing)] = { ...refusing, refusing: true }; // copy: never mark the stored diagnostic, the verdict can move when the log grows
      else
        out.unshift({
          severity: 'error',
          rule: verdict.rule ?? 'refused',
          message: verdict.dshError ?? 'refused',
          line: verdict.line,
          seq: verdict.seq,
          refusing: true,
        });
    }
    return out;
  }

  // ======================================================================================
  // Events (kept events from the index; closers, in memory only, after them)
  // ======================================================================================

  eventType(seq: number): string | undefined {
    if (asSeq(seq) === undefined) return undefined;
    if (seq < this.index.count) return seq >= 0 ? this.index.type(seq) : undefined;
    return this.closers[seq - this.index.count]?.type;
  }

  turn(seq: number): number | undefined {
    if (asSeq(seq) === undefined) return undefined;
    const t = seq < this.index.count ? (seq >= 0 ? this.index.turn(seq) : undefined) : this.closers[seq - this.index.count]?.data?.turn;
    return typeof t === 'number' && !Number.isNaN(t) ? t : undefined;
  }

  step(seq: number): number | undefined {
    if (asSeq(seq) === undefined) return undefined;
    const s = seq < this.index.count ? (seq >= 0 ? this.index.step(seq) : undefined) : this.closers[seq - this.index.count]?.data?.step;
    return typeof s === 'number' && !Number.isNaN(s) ? s : undefined;
  }

  /** Closers: only the tool/result ones join the surface (as appends). */
  surfaceRole(seq: number): SurfaceRole {
    if (asSeq(seq) === undefined) return SurfaceRole.None;
    if (seq < this.index.count) return seq >= 0 ? this.index.role(seq) : SurfaceRole.None;
    return this.closers[seq - this.index.count]?.surfaceOp === 'append' ? SurfaceRole.Append : SurfaceRole.None;
  }

  place(seq: number): EventPlace | undefined {
    return asSeq(seq) === undefined ? undefined : this.index.place(seq);
  }

  /**
   * One event, parsed again from its line: each call returns a fresh object, so a caller can never
   * change what the core holds. Upgraded events and closers are few and kept frozen.
   */
  event(seq: number): SessionEvent | undefined {
    if (asSeq(seq) === undefined) return undefined;
    if (seq >= this.index.count) return this.closers[seq - this.index.count];
    return this.index.event(seq);
  }

  /** The raw text of the line an event came from. */
  lineText(seq: number): string | undefined {
    return asSeq(seq) === undefined ? undefined : this.index.lineText(seq);
  }

  // ======================================================================================
  // Closers and surfaces
  // ======================================================================================

  /** How events are written into this log: its generation's marker spelling, sources and lines. */
  get writing(): LogWriting {
    return writingOf(this.generation?.version ?? 0);
  }

  /**
   * The protected system head (v3 and on): the first surface node when it is a system/message. No
   * ordinary replacement or compaction may shadow it; only a system/message covering exactly it.
   */
  protectedHead(): number | undefined {
    if (!this.state.fold.rules.protectedSystemHead) return undefined;
    const head = this.surface()[0];
    return head !== undefined && this.eventType(head) === 'system/message' ? head : undefined;
  }

  get closers(): SessionEvent[] {
    return this.state.closers;
  }

  /** Events of the constructed session: kept events, closers, and the end-seed marker dsh appends. */
  get sessionEventCount(): number {
    const closers = this.closers;
    const lastType = closers.length > 0 ? closers[closers.length - 1].type : this.eventType(this.eventCount - 1);
    return this.eventCount + closers.length + (lastType === 'session/end-seed' ? 0 : 1);
  }

  surface(): readonly number[] {
    return this.state.surface();
  }

  replaceGeneration(): number {
    return this.state.fold.replaceGeneration;
  }

  replacements(): readonly Replacement[] {
    return this.state.replacements();
  }

  /** The surface after the closers dsh would append (equal to surface() when the last turn is closed). */
  repairedSurface(): readonly number[] {
    return this.state.repaired().fold.nodes;
  }

  repairedReplacements(): readonly Replacement[] {
    return this.state.repaired().fold.replacements;
  }

  repairedReplaceGeneration(): number {
    return this.state.repaired().fold.replaceGeneration;
  }

  /** The messages the model sees (of the current surface, or of the given nodes). */
  /** The messages the model sees (of the current surface, or of the given nodes; nodes that are not seqs of this log give none). */
  deriveMessages(nodes?: readonly number[]): DerivedMessage[] {
    if (nodes === undefined) return this.state.deriveMessages();
    const seqs = asSeqList(nodes, this.eventCount + this.closers.length);
    return seqs === undefined ? [] : this.state.deriveMessages(seqs);
  }

  balancedCuts(nodes?: readonly number[]): BalanceResult {
    if (nodes === undefined) return this.state.balancedCuts();
    const seqs = asSeqList(nodes, this.eventCount + this.closers.length);
    return seqs === undefined ? { error: 'balancedCuts needs an array of seqs of this log' } : this.state.balancedCuts(seqs);
  }

  transcript(): number[] {
    return this.state.transcript();
  }

  // ======================================================================================
  // Appending: plan against the current state, commit only what passes
  // ======================================================================================

  /**
   * Checks a batch as dsh's append would, each event against the state the previous ones leave.
   * Mutates nothing. Returns the problems; an empty list means the batch may be appended.
   */
  planAppend(input: readonly (NewEvent | WidenedEvent)[]): Diagnostic[] {
    const events = plainEvents(input);
    if (!Array.isArray(events)) return [events];
    const problems = this.appendGate(events);
    return problems.length > 0 || !this.generation ? problems : this.formatAppendProblems(events);
  }

  /**
   * A later generation's rules reach across the whole log (relationships, the restore of the artifact):
   * the batch is written, in the generation's own syntax, to a fork of the log, and dsh's format layer
   * reads the fork. The batch may be appended when it opens the result.
   */
  private formatAppendProblems(events: SessionEvent[]): Diagnostic[] {
    let lines: string[];
    try {
      lines = events.map((e) => this.writing.line(e));
    } catch (error) {
      return [{ severity: 'error', rule: 'json.lossless-values', message: (error as Error).message }];
    }
    const fork = this.fork();
    fork.scanner.bytes.append(new TextEncoder().encode(lines.map((l) => l + '\n').join('')));
    fork.ingest();
    const verdict = fork.verdict;
    if (verdict.ok) return [];
    return [
      {
        severity: 'error',
        rule: verdict.rule ?? 'format.restore',
        ...say('with these events appended, dsh would refuse the log ({0}): {1}', verdict.stage, verdict.dshError ?? 'refused'),
      },
    ];
  }

  /** The append gate (envelope, lossless values, surface rules) for a batch of plain events. */
  private appendGate(events: SessionEvent[]): Diagnostic[] {
    const log = this;
    return planAppend(
      {
        get verdict() {
          return log.verdict;
        },
        get eventCount() {
          return log.eventCount;
        },
        get tornBytes() {
          return log.scanner.bytes.length - log.scanner.committed;
        },
        fold: this.state.fold,
        v0Shapes: this.generation === undefined,
        event: this.lookup,
      },
      events,
    );
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
    this.scanner.bytes.append(new TextEncoder().encode(lines.map((l) => l + '\n').join('')));
    this.ingest();
    return { ok: true, lines };
  }

  // ======================================================================================
  // Following a growing file
  // ======================================================================================

  extend(input: Uint8Array): ExtendResult {
    const appended = asBytes(input);
    if (!appended) return { added: 0, diagnostics: [badInput('extend needs the appended bytes (a Uint8Array)', input)] };
    const before = this.eventCount;
    const diagnosticsBefore = this.verdicts.diagnostics.length;
    this.scanner.bytes.append(appended);
    this.ingest();
    return { added: this.eventCount - before, diagnostics: this.verdicts.diagnostics.slice(diagnosticsBefore) };
  }

  /** Byte offset up to which complete lines have been read (the rest is a torn or growing tail). */
  get scannedBytes(): number {
    return this.scanner.scannedBytes;
  }

  get name(): string {
    return this.fileName;
  }
}

/** The types whose stored shape adopt may upgrade or check (turn/start, turn/end, the message events, and the unknown ones, steering/message among them). */
function adoptMayChange(typeId: number): boolean {
  return typeId >= KNOWN_TYPE_COUNT || typeId === TypeId.TurnStart || typeId === TypeId.TurnEnd || isMessageType(typeId);
}

/** The three message events (their message shapes are checked). */
function isMessageType(typeId: number): boolean {
  return typeId === TypeId.UserMessage || typeId === TypeId.AssistantMessage || typeId === TypeId.ToolResult;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && value === value ? value : undefined;
}

/**
 * The later generation (1 and on) a file is read as, by dsh's format layer; undefined for a v0 file,
 * read as dsh 0.1.x reads it. A name that names a generation decides (`session.jsonl` is v0 whatever
 * its header says, as it was for the dsh that read it; `session.v4.jsonl` is v4, its header decoded by
 * the codec of the version it names); any other name leaves it to the header.
 */
function generationToRead(raw: unknown, nameVersion: number | undefined): number | undefined {
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
