// Reads a dsh session log from bytes and reaches dsh's verdict in one pass, in dsh's stage order
// (header, parse, adopt, known-types, closers, seed), while keeping a compact view of everything
// that could be read. Event bodies are not retained: they are parsed again from the bytes on demand.
import type { DerivedMessage, ExtendResult, LoadOptions, SessionLogView } from '../api';
import type { Diagnostic, ErrorName, EventPlace, RelatedPlace, Replacement, ScanSummary, SessionEvent, SessionHeader, Stage, Verdict } from '../types';
import { ByteStore, Column } from './columns';
import { readHeaderLine, validateHeader, type HeaderRead } from './header';
import { isRowTagged, MalformedRowError, rowMember, validateRow } from './chunk-rows';
import { LegacyRefusal, RetiredShapeWatch, eventMessageId, upgradeLegacyEvent } from './legacy';
import { checkMessageShape, checkSeedEnvelope } from './event-shape';
import { KNOWN_EVENT_TYPES } from './known-types';
import { CloserScan, RepairTypeError } from '../surface/repair';
import { SurfaceError, SurfaceFold, type SurfacePlan } from '../surface/surface';
import { isLosslessJson, mayBeLossy } from './lossless';
import { balancedCuts, deriveEventMessage, toolCallCount, type BalanceResult } from '../surface/projections';
import { nullReadMessage } from './json-values';
import type { NewEvent, WidenedEvent } from '../plan/append-types';
import { serializeEvent } from '../plan/serialize';
import { cloneJson, notJsonReason, stringText, valueText } from '../value-text';
import { asBytes, asSeq, badInput } from '../api-guard';

const NEWLINE = 0x0a;
// ignoreBOM keeps a byte-order mark in the text, as dsh's reader does (a BOM before the header is damage).
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** One refusal found at a given stage, in dsh's words plus where it was found. */
interface Refusal {
  dshError: string;
  errorName: ErrorName;
  rule: string;
  line?: number;
  seq?: number;
  related?: RelatedPlace[];
}

const STAGE_ORDER: Stage[] = ['header', 'parse', 'adopt', 'known-types', 'closers', 'seed'];

/** Surface role of an event, kept per event for the transcript and provenance views. */
export const enum SurfaceRole { None = 0, Append = 1, Replace = 2 }

/** A line after the damage that still reads as an event (or packed row), which dsh does not keep. */
export interface LineBeyondDamage {
  line: number;
  offset: number;
  length: number;
  type: string;
  seq?: number;
}

export interface StrictSeedVerdict {
  ok: boolean;
  error?: string;
  errorName?: ErrorName;
}

export class SessionLog implements SessionLogView {
  private readonly bytes: ByteStore;
  private readonly fileName: string;

  // --- header ---
  private headerRead: HeaderRead | undefined;
  private headerSeedError: string | undefined;

  // --- scan state (dsh's SessionLogScanner) ---
  private scanPos = 0;
  private eventLine = 0;
  private committed = 0;
  private packedRowCount = 0;
  private damage: { message: string; rule: string; line: number; offset: number } | undefined;

  // --- per-event columns ---
  private readonly lineNo = new Column(Int32Array);
  private readonly lineStart = new Column(Float64Array);
  private readonly lineLength = new Column(Int32Array);
  private readonly member = new Column(Int32Array);
  private readonly typeId = new Column(Uint16Array);
  private readonly turnOf = new Column(Float64Array);
  private readonly stepOf = new Column(Float64Array);
  private readonly toolCalls = new Column(Uint16Array);
  private readonly role = new Column(Uint8Array);
  private readonly typeNames: string[] = [];
  private readonly typeIds = new Map<string, number>();
  /** Events whose stored shape was upgraded: the upgraded form (parsing the line would undo it). */
  private readonly upgraded = new Map<number, SessionEvent>();

  // --- stage state ---
  private readonly refusals = new Map<Stage, Refusal>();
  private readonly retired = new RetiredShapeWatch();
  private readonly closerScan = new CloserScan();
  private readonly fold = new SurfaceFold();
  /** The first event the seed refused (the strict constructor meets it too, after any lossy event before it). */
  private firstSeedEventProblem: Refusal | undefined;
  private lossy = { scannedTo: 0, first: undefined as Refusal | undefined, warnings: [] as Diagnostic[] };
  private readonly diags: Diagnostic[] = [];

  // --- caches keyed by event count ---
  private cache: { count: number; closers?: SessionEvent[]; repaired?: SurfaceFold; closerRefusal?: Refusal | null } = { count: -1 };
  private lastRow: { start: number; row: Record<string, any>; times: number[] } | undefined;

  constructor(bytes: Uint8Array, options: LoadOptions = {}) {
    this.bytes = new ByteStore(bytes);
    this.fileName = options.fileName ?? 'session.jsonl';
  }

  // ======================================================================================
  // Loading
  // ======================================================================================

  /** Reads the header and every complete line. `budgetMs` lets async callers yield between slices. */
  ingest(budgetMs = Infinity, onProgress?: (fraction: number) => void): boolean {
    if (this.headerRead === undefined && !this.readHeader()) return true;
    const started = Date.now();
    let lines = 0;
    for (;;) {
      const newline = this.bytes.indexOf(NEWLINE, this.scanPos);
      if (newline === -1) break;
      this.consumeLine(this.scanPos, newline);
      this.scanPos = newline + 1;
      if (++lines % 2048 === 0) {
        onProgress?.(this.scanPos / Math.max(1, this.bytes.length));
        if (Date.now() - started > budgetMs) return false;
      }
    }
    onProgress?.(1);
    return true;
  }

  private readHeader(): boolean {
    const end = this.bytes.indexOf(NEWLINE, 0);
    // No complete header line yet: refused as header-less for now (see firstRefusal), read when it completes.
    if (end === -1) return false;
    this.headerRead = readHeaderLine(utf8.decode(this.bytes.view(0, end)));
    const problem = this.headerRead.problem;
    if (problem) {
      this.refuse('header', { dshError: problem.message, errorName: problem.unsupported ? 'SessionFormatUnsupportedError' : 'Error', rule: problem.rule, line: 1 });
    } else if (this.headerRead.header) {
      this.headerSeedError = validateHeader(this.headerRead.header);
      if (this.headerSeedError) this.refuse('seed', { dshError: this.headerSeedError, errorName: 'Error', rule: 'header.session-fields', line: 1 });
    }
    this.scanPos = end + 1;
    this.committed = end + 1;
    return true;
  }

  /**
   * Records a refusal found by the container (zstd framing) before the JSONL text was read:
   * dsh fails the read itself, so it is a header- or parse-stage refusal with dsh's message.
   */
  refuseContainer(stage: 'header' | 'parse', dshError: string, rule: string, detail: string, line?: number): void {
    this.refuse(stage, { dshError, errorName: 'Error', rule, line });
    this.report({ severity: 'error', rule, message: `${dshError} (${detail})`, line });
  }

  /**
   * The container has no complete header frame yet (a writer may still be writing it): refused as
   * header-less with the container's words until the header line arrives through `extend`.
   */
  awaitHeader(dshError: string, rule: string): void {
    this.headerless = { dshError, errorName: 'Error', rule, line: 1 };
  }

  private headerless: Refusal | undefined;

  /** The caller handed in something that is not a log at all: refused as the header stage. */
  refuseInput(problem: Diagnostic): void {
    this.refuse('header', { dshError: problem.message, errorName: 'Error', rule: problem.rule });
    this.report(problem);
  }

  /** A remark of the container (a torn final frame, skipped bytes) that does not change the verdict. */
  reportContainer(diagnostic: Diagnostic): void {
    this.report(diagnostic);
  }

  private get sessionId(): string {
    return this.headerRead?.header?.id ?? '';
  }

  private refuse(stage: Stage, refusal: Refusal): void {
    if (!this.refusals.has(stage)) this.refusals.set(stage, refusal);
  }

  private report(d: Diagnostic): void {
    // One report per rule and line keeps a badly damaged log from drowning the Problems panel.
    if (this.diags.length < 5000) this.diags.push(d);
  }

  /** One complete line (without its newline): dsh's scanner rules for the committed prefix. */
  private consumeLine(start: number, end: number): void {
    this.eventLine += 1;
    const fileLine = this.eventLine + 1;
    const text = utf8.decode(this.bytes.view(start, end));
    let value: unknown;
    let members: number;
    try {
      value = JSON.parse(text);
      members = isRowTagged(value) ? validateRow(value) : 1;
    } catch (error) {
      const why = error instanceof MalformedRowError ? ` (${error.message})` : '';
      this.report({ severity: 'warning', rule: error instanceof MalformedRowError ? 'rows.decode' : 'jsonl.damaged-line', message: `line ${fileLine} cannot be read${why}`, line: fileLine, offset: start, length: end - start });
      this.damage ??= { message: `corrupt session log: unparsable committed event at line ${this.eventLine}`, rule: error instanceof MalformedRowError ? 'rows.decode' : 'jsonl.damaged-line', line: fileLine, offset: start };
      return;
    }
    const rowTagged = members > 1 || isRowTagged(value);
    // The scan summary counts every complete row line, kept or not.
    if (rowTagged) this.packedRowCount += 1;
    if (this.damage !== undefined) {
      // After damage dsh keeps nothing; a later turn/end proves the damage sits inside committed history.
      if (value === null) return this.parseTypeError('type', fileLine);
      const endsTurn = !rowTagged && (value as { type?: unknown }).type === 'turn/end';
      this.noteBeyondDamage(value, rowTagged, fileLine, start, end);
      if (endsTurn && !this.refusals.has('parse')) {
        this.refuse('parse', { dshError: this.damage.message, errorName: 'Error', rule: this.damage.rule, line: this.damage.line });
        this.report({ severity: 'error', rule: 'jsonl.damaged-line', message: `line ${this.damage.line} is damaged but line ${fileLine} closes a turn after it: the damage is inside committed history`, line: this.damage.line, offset: this.damage.offset, related: [{ line: fileLine, message: 'the later turn/end' }] });
      }
      return;
    }
    if (value === null) return this.parseTypeError('seq', fileLine);
    const first = this.lineNo.length;
    if (rowTagged) {
      const row = value as Record<string, any>;
      if (row.seq0 !== first) return this.seqGap(first, row.seq0, fileLine, start, false, 'seq.contiguity');
      this.acceptRowMembers(row, members, fileLine, start, end - start);
    } else {
      const seq = (value as { seq?: unknown }).seq;
      if (seq !== first) return this.seqGap(first, seq, fileLine, start, (value as { type?: unknown }).type === 'turn/end', gapRule(value));
      this.acceptEvent(value as SessionEvent, fileLine, start, end - start, -1);
    }
    this.committed = end + 1;
  }

  /**
   * Lines after the damage that still read as events: dsh keeps none of them, but a view shows them
   * (type, seq, line) so the user sees what the damage cuts off. Capped: a summary, not a second index.
   */
  private noteBeyondDamage(value: unknown, rowTagged: boolean, line: number, offset: number, end: number): void {
    this.beyond.count += 1;
    if (this.beyond.lines.length >= 10_000) return;
    const record = value as { type?: unknown; seq?: unknown; seq0?: unknown };
    this.beyond.lines.push({
      line,
      offset,
      length: end - offset,
      type: rowTagged ? 'assistant/chunk' : stringText(record.type, 200),
      seq: typeof (rowTagged ? record.seq0 : record.seq) === 'number' ? ((rowTagged ? record.seq0 : record.seq) as number) : undefined,
    });
  }

  private readonly beyond = { count: 0, lines: [] as LineBeyondDamage[] };

  /** Readable lines after the first damaged line (empty unless the scan stopped at damage). */
  get linesBeyondDamage(): { count: number; lines: readonly LineBeyondDamage[] } {
    return this.beyond;
  }

  private parseTypeError(prop: string, fileLine: number): void {
    this.refuse('parse', { dshError: nullReadMessage(null, prop), errorName: 'TypeError', rule: 'jsonl.damaged-line', line: fileLine });
    this.report({ severity: 'error', rule: 'jsonl.damaged-line', message: `line ${fileLine} is JSON null, which dsh's reader cannot read (it crashes)`, line: fileLine });
  }

  private seqGap(expected: number, got: unknown, fileLine: number, offset: number, endsTurn: boolean, rule: string): void {
    const message = `corrupt session log: seq gap in committed region at line ${this.eventLine} (expected ${expected}, got ${stringText(got)})`;
    this.damage = { message, rule, line: fileLine, offset };
    this.report({ severity: 'warning', rule, message: `line ${fileLine} has seq ${valueText(got)} where seq ${expected} was expected`, line: fileLine, offset });
    if (endsTurn) this.refuse('parse', { dshError: message, errorName: 'Error', rule, line: fileLine });
  }

  /** Runs one kept event through adopt, known-types, the closer scan and the seed, and indexes it. */
  private acceptEvent(stored: SessionEvent, fileLine: number, offset: number, length: number, member: number): void {
    const seq = this.lineNo.length;
    const id = this.sessionId;
    this.retired.observe(stored);

    // adopt: upgrade legacy shapes, then check message shapes.
    let event = stored;
    // Set once adopt has checked the message shape (pass or fail): the seed step does not check or
    // report the same shape again. (When adopt refuses, the seed's verdict no longer matters.)
    let shapeChecked = false;
    try {
      event = upgradeLegacyEvent(stored, id, (s) => this.messageIdAt(s));
      const shape = checkMessageShape(event as unknown as Record<string, unknown>, `session event at seq ${seq}`);
      shapeChecked = true;
      if (shape) this.problem('adopt', { dshError: shape.message, errorName: 'Error', rule: shape.rule, line: fileLine, seq, related: this.callContext(event) });
    } catch (error) {
      if (error instanceof LegacyRefusal) this.problem('adopt', { dshError: error.message, errorName: 'Error', rule: error.rule, line: fileLine, seq });
      else this.internalProblem(error, fileLine, seq);
    }
    if (event !== stored) this.upgraded.set(seq, deepFreeze(event));

    // known-types
    if (!KNOWN_EVENT_TYPES.has(event.type) && event.ignorable !== true) {
      this.problem('known-types', {
        dshError: `session "${id}" contains event type "${stringText(event.type)}" (seq ${seq}) unknown to this harness and not marked ignorable; refusing to interpret the log — it was likely written by a newer harness`,
        errorName: 'SessionFormatUnsupportedError', rule: 'vocabulary.unknown-types', line: fileLine, seq,
      });
    }

    // closers: the repair scan
    try {
      this.closerScan.observe(event);
    } catch (error) {
      if (error instanceof RepairTypeError) this.problem('closers', { dshError: error.message, errorName: 'TypeError', rule: 'envelope.null-data', line: fileLine, seq });
      else this.internalProblem(error, fileLine, seq);
    }

    // seed: envelope, shapes, surface
    const role = this.seedEvent(event, seq, fileLine, shapeChecked);

    this.lineNo.push(fileLine);
    this.lineStart.push(offset);
    this.lineLength.push(length);
    this.member.push(member);
    this.typeId.push(this.internType(event.type));
    const data = event.data as { turn?: unknown; step?: unknown } | null;
    this.turnOf.push(typeof data?.turn === 'number' ? data.turn : NaN);
    this.stepOf.push(typeof data?.step === 'number' ? data.step : NaN);
    this.toolCalls.push(event.type === 'assistant/message' ? Math.min(65535, toolCallCount(event)) : 0);
    this.role.push(role);
  }

  /**
   * Members of a validated row are well-formed `assistant/chunk` events by construction: known type,
   * safe-integer seq and time, no surface metadata, nothing the repair scan reads. So they skip the
   * per-event pipeline (most events of a real log are chunks) and only get indexed.
   */
  private acceptRowMembers(row: Record<string, any>, members: number, fileLine: number, offset: number, length: number): void {
    const typeId = this.internType('assistant/chunk');
    const turn = typeof row.data.turn === 'number' ? row.data.turn : NaN;
    const step = typeof row.data.step === 'number' ? row.data.step : NaN;
    let lastTime = row.time0 as number;
    for (const gap of row.data.dt as number[]) lastTime += gap;
    this.closerScan.observeTime(row.seq0 + members - 1, lastTime);
    this.lineNo.pushRepeated(fileLine, members);
    this.lineStart.pushRepeated(offset, members);
    this.lineLength.pushRepeated(length, members);
    this.member.pushSequence(0, members);
    this.typeId.pushRepeated(typeId, members);
    this.turnOf.pushRepeated(turn, members);
    this.stepOf.pushRepeated(step, members);
    this.toolCalls.pushRepeated(0, members);
    this.role.pushRepeated(SurfaceRole.None, members);
  }

  /** The seed step for one event; returns its surface role. After a seed refusal the fold goes on leniently. */
  private seedEvent(event: SessionEvent, seq: number, fileLine: number, messageShapeChecked: boolean): SurfaceRole {
    const envelope = checkSeedEnvelope(event as unknown as Record<string, unknown>, seq, messageShapeChecked);
    if (envelope) {
      this.seedProblem({ dshError: envelope.message, errorName: 'Error', rule: envelope.rule, line: fileLine, seq });
      return SurfaceRole.None;
    }
    let plan: SurfacePlan | undefined;
    try {
      plan = this.fold.plan(event, seq, (s) => this.event(s));
    } catch (error) {
      const message = error instanceof Error ? error.message : valueText(error);
      const rule = error instanceof SurfaceError ? error.rule : 'surface.marker-shape';
      this.seedProblem({ dshError: `invalid seed event at index ${seq}: ${message}`, errorName: 'Error', rule, line: fileLine, seq, related: this.surfaceContext(event, rule) });
      return SurfaceRole.None;
    }
    this.fold.apply(plan);
    return plan === undefined ? SurfaceRole.None : plan.kind === 'append' ? SurfaceRole.Append : SurfaceRole.Replace;
  }

  /**
   * For a tool/result refused for its shape: the tool/calls its ids name, found by walking back over
   * earlier tool/call events (an error path only, so no index is kept for it).
   */
  private callContext(event: SessionEvent): RelatedPlace[] | undefined {
    if (event.type !== 'tool/result') return undefined;
    const message = event.data?.message;
    const named = new Map<string, string>();
    if (typeof message?.source?.callId === 'string') named.set(message.source.callId, "the call this result's source names");
    const blockId = Array.isArray(message?.content) ? message.content[0]?.toolCallId : undefined;
    if (typeof blockId === 'string' && !named.has(blockId)) named.set(blockId, 'the call its tool-result block answers');
    const related: RelatedPlace[] = [];
    let looked = 0;
    for (let seq = this.eventCount - 1; seq >= 0 && named.size > 0 && looked < 10_000; seq--) {
      if (this.eventType(seq) !== 'tool/call') continue;
      looked += 1;
      const callId = this.event(seq)?.data?.callId;
      const label = named.get(callId);
      if (label === undefined) continue;
      related.push({ ...this.place(seq), seq, message: `${label}: tool/call ${valueText(callId)}` });
      named.delete(callId);
    }
    for (const [callId, label] of named) related.push({ message: `${label} (${valueText(callId)}) has no earlier tool/call` });
    return related.length > 0 ? related : undefined;
  }

  /** Where a refused replace points: the nodes it targets, where a missing endpoint went, what it fails to cite. */
  private surfaceContext(event: SessionEvent, rule: string): RelatedPlace[] | undefined {
    const op = event.surfaceOp;
    if (typeof op !== 'object' || op === null) return undefined;
    const nodes = this.fold.nodes;
    const at = (seq: number, message: string): RelatedPlace => ({ ...this.place(seq), seq, message });
    const related: RelatedPlace[] = [];
    for (const endpoint of [op.start, op.end]) {
      if (typeof endpoint !== 'number' || nodes.includes(endpoint) || endpoint >= this.eventCount) continue;
      const shadowedBy = this.fold.replacements.find((r) => r.shadowedSeqs.includes(endpoint));
      if (shadowedBy) related.push(at(shadowedBy.seq, `seq ${endpoint} left the surface here: this event replaced it`));
      else related.push(at(endpoint, `seq ${endpoint} is a ${this.eventType(endpoint)}, not a surface node`));
    }
    const startIdx = nodes.indexOf(op.start);
    const endIdx = nodes.indexOf(op.end);
    if (startIdx >= 0 && endIdx >= startIdx) {
      const shadowed = nodes.slice(startIdx, endIdx + 1);
      const cited = new Set(Array.isArray(event.sourceEventSeqs) ? event.sourceEventSeqs : []);
      for (const seq of shadowed.slice(0, 5)) {
        if (rule.startsWith('toolresult-rewrite')) related.push(at(seq, `the ${this.eventType(seq)} this replacement targets`));
        else if (rule === 'replace.sources-cover-shadowed' && !cited.has(seq)) related.push(at(seq, `shadowed here but not cited in sourceEventSeqs`));
      }
    }
    return related.length > 0 ? related : undefined;
  }

  /**
   * Reading never throws on bad input: a shape no rule anticipated is reported on its line (so it can
   * be fixed) and the scan goes on.
   */
  private internalProblem(error: unknown, line: number, seq: number): void {
    this.report({ severity: 'warning', rule: 'reader.unexpected-shape', message: `seq ${seq} has a shape the reader did not expect: ${error instanceof Error ? error.message : valueText(error)}`, line, seq });
  }

  private seedProblem(refusal: Refusal): void {
    this.firstSeedEventProblem ??= refusal;
    this.problem('seed', refusal);
  }

  private problem(stage: Stage, refusal: Refusal): void {
    this.refuse(stage, refusal);
    this.report({ severity: 'error', rule: refusal.rule, message: refusal.dshError, line: refusal.line, seq: refusal.seq, ...(refusal.related ? { related: refusal.related } : {}) });
  }

  /** The message id an earlier event carries, read again from its line (rare: legacy replacements only). */
  private messageIdAt(seq: number): string | undefined {
    if (seq < 0 || seq >= this.eventCount) return undefined;
    const event = this.event(seq);
    return event ? eventMessageId(event) : undefined;
  }

  private internType(type: unknown): number {
    const name = typeof type === 'string' ? type : `(${valueText(type, 60)})`;
    let id = this.typeIds.get(name);
    if (id === undefined) {
      id = this.typeNames.length;
      this.typeNames.push(name);
      this.typeIds.set(name, id);
    }
    return id;
  }

  // ======================================================================================
  // Verdict and summary
  // ======================================================================================

  get header(): SessionHeader | undefined {
    return this.headerRead?.header;
  }

  /**
   * The first line as parsed, even when dsh refuses it as a header (an older writer's header without
   * delegationDepth, a foreign version): a view can still say which session the file is.
   */
  get headerLine(): unknown {
    return this.headerRead?.raw;
  }

  get eventCount(): number {
    return this.lineNo.length;
  }

  get upgradedSeqs(): number[] {
    return [...this.upgraded.keys()];
  }

  get lastTurnOpen(): boolean {
    return this.closerScan.turnOpen;
  }

  get scan(): ScanSummary {
    const fileBytes = this.bytes.length;
    const summary: ScanSummary = {
      fileBytes,
      committedBytes: this.committed,
      endsWithNewline: fileBytes > 0 && this.bytes.at(fileBytes - 1) === NEWLINE,
      packedRows: this.packedRowCount,
    };
    if (this.committed < fileBytes) summary.stoppedAt = this.damage?.message ?? 'torn-tail';
    return summary;
  }

  /** The refusal of the earliest failing stage, if any. */
  private firstRefusal(): { stage: Stage; refusal: Refusal } | undefined {
    for (const stage of STAGE_ORDER) {
      let refusal = this.refusals.get(stage);
      if (stage === 'header' && !refusal && this.headerRead === undefined) {
        refusal = this.headerless ?? { dshError: 'empty or header-less session log', errorName: 'Error', rule: 'header.line-shape', line: 1 };
      }
      if (stage === 'adopt') {
        const retired = this.retired.refusal(this.sessionId);
        if (retired) refusal = { dshError: retired.message, errorName: retired.typeError ? 'TypeError' : 'Error', rule: retired.rule };
      }
      if (stage === 'seed' && !refusal) refusal = this.repaired().closerRefusal ?? undefined;
      if (refusal) return { stage, refusal };
    }
    return undefined;
  }

  get verdict(): Verdict {
    const first = this.firstRefusal();
    if (!first) return { ok: true, stage: 'done' };
    const { stage, refusal } = first;
    return {
      ok: false,
      stage,
      error: ourWording(refusal),
      dshError: refusal.dshError,
      errorName: refusal.errorName,
      rule: refusal.rule,
      line: refusal.line,
      seq: refusal.seq,
    };
  }

  /**
   * Lossless-JSON problems (-0, numbers that overflow). dsh's load path does not check them, only its
   * strict constructor and append do, so they are found on demand rather than while loading.
   */
  private scanLossless(): { first: Refusal | undefined; warnings: Diagnostic[] } {
    const state = this.lossy;
    let seq = state.scannedTo;
    while (seq < this.eventCount) {
      const start = this.lineStart.get(seq);
      const length = this.lineLength.get(seq);
      let next = seq + 1;
      while (next < this.eventCount && this.lineStart.get(next) === start) next++;
      const text = utf8.decode(this.bytes.view(start, start + length));
      if (mayBeLossy(text)) {
        for (let s = seq; s < next; s++) {
          const event = this.event(s);
          if (event && !isLosslessJson(event)) {
            const line = this.lineNo.get(s);
            state.first ??= { dshError: `seed event at index ${s} is not losslessly JSON-serializable`, errorName: 'Error', rule: 'json.lossless-values', line, seq: s };
            state.warnings.push({ severity: 'warning', rule: 'json.lossless-values', message: `line ${line} (seq ${s}) holds -0 or a number too large for JSON; dsh loads it but its strict constructor and append refuse it`, line, offset: start, length, seq: s });
          }
        }
      }
      seq = next;
    }
    state.scannedTo = seq;
    return state;
  }

  /** What dsh's strict constructor (replay/fork path) says of the same seed: events in order, then closers, then the header. */
  get strictSeed(): StrictSeedVerdict {
    const lossy = this.scanLossless().first;
    const seedProblem = this.firstSeedEventProblem;
    // The strict constructor snapshots an event (lossless check) before validating it.
    const eventProblem = lossy && (!seedProblem || (lossy.seq ?? 0) <= (seedProblem.seq ?? 0)) ? lossy : seedProblem;
    const first = eventProblem ?? this.repaired().closerRefusal ?? (this.headerSeedError ? { dshError: this.headerSeedError, errorName: 'Error' as const, rule: '' } : undefined);
    return first ? { ok: false, error: first.dshError, errorName: first.errorName } : { ok: true };
  }

  get diagnostics(): Diagnostic[] {
    const out = [...this.diags, ...this.scanLossless().warnings];
    const verdict = this.verdict;
    const scan = this.scan;
    if (scan.stoppedAt === 'torn-tail') {
      const line = this.eventLine + 2;
      out.push({ severity: 'info', rule: 'jsonl.torn-tail', message: `the final ${scan.fileBytes - scan.committedBytes} bytes (line ${line}) have no newline yet: a torn tail dsh ignores, or a line still being written`, line, offset: scan.committedBytes });
    } else if (scan.stoppedAt && verdict.ok) {
      const beyond = this.beyond.count > 0 ? ` (${this.beyond.count} readable line(s) after it are dropped)` : '';
      out.push({ severity: 'warning', rule: 'jsonl.damaged-line', message: `dsh keeps only the events before line ${this.damage?.line}${beyond}; a writable open would truncate the file at byte ${scan.committedBytes}`, line: this.damage?.line, offset: this.damage?.offset });
    }
    if (!verdict.ok) {
      const refusing = out.find((d) => d.severity === 'error' && d.line === verdict.line && d.rule === verdict.rule);
      if (refusing) out[out.indexOf(refusing)] = { ...refusing, refusing: true }; // copy: never mark the stored diagnostic, the verdict can move when the log grows
      else out.unshift({ severity: 'error', rule: verdict.rule ?? 'refused', message: verdict.dshError ?? 'refused', line: verdict.line, seq: verdict.seq, refusing: true });
    }
    return out;
  }

  // ======================================================================================
  // Events
  // ======================================================================================

  eventType(seq: number): string | undefined {
    if (asSeq(seq) === undefined) return undefined;
    if (seq < this.eventCount) return this.typeNames[this.typeId.get(seq)];
    return this.closers[seq - this.eventCount]?.type;
  }

  turn(seq: number): number | undefined {
    if (asSeq(seq) === undefined) return undefined;
    const t = seq < this.eventCount ? this.turnOf.get(seq) : this.closers[seq - this.eventCount]?.data?.turn;
    return typeof t === 'number' && !Number.isNaN(t) ? t : undefined;
  }

  step(seq: number): number | undefined {
    if (asSeq(seq) === undefined) return undefined;
    const s = seq < this.eventCount ? this.stepOf.get(seq) : this.closers[seq - this.eventCount]?.data?.step;
    return typeof s === 'number' && !Number.isNaN(s) ? s : undefined;
  }

  /** Closers: only the tool/result ones join the surface (as appends). */
  surfaceRole(seq: number): SurfaceRole {
    if (asSeq(seq) === undefined) return SurfaceRole.None;
    if (seq < this.eventCount) return this.role.get(seq);
    return this.closers[seq - this.eventCount]?.surfaceOp === 'append' ? SurfaceRole.Append : SurfaceRole.None;
  }

  place(seq: number): EventPlace | undefined {
    if (asSeq(seq) === undefined || seq >= this.eventCount) return undefined;
    const place: EventPlace = { line: this.lineNo.get(seq), offset: this.lineStart.get(seq), length: this.lineLength.get(seq) };
    const member = this.member.get(seq);
    if (member >= 0) place.packedMember = member;
    return place;
  }

  /**
   * One event, parsed again from its line: each call returns a fresh object, so a caller can never
   * change what the core holds. Upgraded events and closers are few and kept frozen.
   */
  event(seq: number): SessionEvent | undefined {
    if (asSeq(seq) === undefined) return undefined;
    if (seq >= this.eventCount) return this.closers[seq - this.eventCount];
    const upgraded = this.upgraded.get(seq);
    if (upgraded) return upgraded;
    const start = this.lineStart.get(seq);
    const member = this.member.get(seq);
    if (member < 0) return JSON.parse(utf8.decode(this.bytes.view(start, start + this.lineLength.get(seq)))) as SessionEvent;
    // Members of one packed row are usually read together: keep the row and its member times.
    if (this.lastRow?.start !== start) {
      const row = JSON.parse(utf8.decode(this.bytes.view(start, start + this.lineLength.get(seq)))) as Record<string, any>;
      const times: number[] = [row.time0];
      for (const gap of row.data.dt as number[]) times.push(times[times.length - 1] + gap);
      this.lastRow = { start, row, times };
    }
    return rowMember(this.lastRow.row, member, this.lastRow.times[member]);
  }

  /** The raw text of the line an event came from. */
  lineText(seq: number): string | undefined {
    const place = this.place(seq);
    return place ? utf8.decode(this.bytes.view(place.offset, place.offset + place.length)) : undefined;
  }

  // ======================================================================================
  // Closers and surfaces
  // ======================================================================================

  /** Closers and the repaired surface, recomputed only when the log grew. */
  private repaired(): { closers: SessionEvent[]; fold: SurfaceFold; closerRefusal: Refusal | null } {
    if (this.cache.count !== this.eventCount) {
      const closers = this.refusals.has('closers') ? [] : this.closerScan.closers().map(deepFreeze);
      let closerRefusal: Refusal | null = null;
      let fold = this.fold;
      if (closers.length > 0) {
        fold = this.fold.clone();
        for (const closer of closers) {
          try {
            fold.apply(fold.plan(closer, closer.seq, (s) => (s < this.eventCount ? this.event(s) : closers[s - this.eventCount])));
          } catch (error) {
            closerRefusal ??= { dshError: `invalid seed event at index ${closer.seq}: ${(error as Error).message}`, errorName: 'Error', rule: 'repair.closers', seq: closer.seq };
          }
        }
      }
      this.cache = { count: this.eventCount, closers, repaired: fold, closerRefusal };
    }
    return { closers: this.cache.closers!, fold: this.cache.repaired!, closerRefusal: this.cache.closerRefusal ?? null };
  }

  get closers(): SessionEvent[] {
    return this.repaired().closers;
  }

  /** Events of the constructed session: kept events, closers, and the end-seed marker dsh appends. */
  get sessionEventCount(): number {
    const closers = this.closers;
    const lastType = closers.length > 0 ? closers[closers.length - 1].type : this.eventType(this.eventCount - 1);
    return this.eventCount + closers.length + (lastType === 'session/end-seed' ? 0 : 1);
  }

  surface(): readonly number[] {
    return this.fold.nodes;
  }

  replaceGeneration(): number {
    return this.fold.replaceGeneration;
  }

  replacements(): readonly Replacement[] {
    return this.fold.replacements;
  }

  /** The surface after the closers dsh would append (equal to surface() when the last turn is closed). */
  repairedSurface(): readonly number[] {
    return this.repaired().fold.nodes;
  }

  repairedReplacements(): readonly Replacement[] {
    return this.repaired().fold.replacements;
  }

  repairedReplaceGeneration(): number {
    return this.repaired().fold.replaceGeneration;
  }

  /**
   * The messages the model sees. Without `nodes`, the current surface's messages come from a
   * watermark cache: new surface nodes are projected once, and a replace (a new generation) rebuilds.
   */
  deriveMessages(nodes?: readonly number[]): DerivedMessage[] {
    if (nodes !== undefined) return Array.isArray(nodes) ? this.project(nodes, 0, []) : [];
    const surface = this.fold.nodes;
    const cache = this.derived;
    if (cache.generation !== this.fold.replaceGeneration) {
      cache.generation = this.fold.replaceGeneration;
      cache.nodes = 0;
      cache.messages = [];
    }
    if (cache.nodes < surface.length) {
      this.project(surface, cache.nodes, cache.messages);
      cache.nodes = surface.length;
    }
    return [...cache.messages];
  }

  private derived = { generation: 0, nodes: 0, messages: [] as DerivedMessage[] };

  private project(nodes: readonly number[], from: number, out: DerivedMessage[]): DerivedMessage[] {
    for (let i = from; i < nodes.length; i++) {
      const event = this.event(nodes[i]);
      const message = event ? deriveEventMessage(event) : null;
      if (message) out.push(message);
    }
    return out;
  }

  balancedCuts(nodes: readonly number[] = this.surface()): BalanceResult {
    if (!Array.isArray(nodes)) return { error: 'balancedCuts needs an array of seqs' };
    return balancedCuts(nodes, (seq) => this.balanceDelta(seq));
  }

  private balanceDelta(seq: number): number {
    if (seq >= this.eventCount) return this.eventType(seq) === 'tool/result' ? -1 : 0;
    const type = this.eventType(seq);
    if (type === 'tool/result') return -1;
    return type === 'assistant/message' ? this.toolCalls.get(seq) : 0;
  }

  transcript(): number[] {
    const out: number[] = [];
    for (let seq = 0; seq < this.eventCount; seq++) if (this.role.get(seq) === SurfaceRole.Append) out.push(seq);
    return out;
  }

  // ======================================================================================
  // Appending: plan against the current state, commit only what passes
  // ======================================================================================

  /**
   * Checks a batch as dsh's append would (contiguous seqs, lossless JSON, envelope, message shapes,
   * surface rules), each event against the state the previous ones leave. Mutates nothing.
   * Returns the problems; an empty list means the batch may be appended.
   */
  planAppend(input: readonly (NewEvent | WidenedEvent)[]): Diagnostic[] {
    const events = plainEvents(input);
    if (!Array.isArray(events)) return [events];
    const problems: Diagnostic[] = [];
    const verdict = this.verdict;
    if (!verdict.ok) {
      return [{ severity: 'error', rule: 'append.refused-log', message: `dsh refuses this log (${verdict.error}); nothing can be appended to it` }];
    }
    if (this.committed < this.bytes.length) {
      return [{ severity: 'error', rule: 'jsonl.torn-tail', message: `the file has ${this.bytes.length - this.committed} bytes after its last complete line; an append would join them` }];
    }
    const fold = events.length > 1 ? this.fold.clone() : this.fold;
    const pending: SessionEvent[] = [];
    const lookup = (seq: number) => (seq < this.eventCount ? this.event(seq) : pending[seq - this.eventCount]);
    for (const candidate of events) {
      const event = candidate as unknown as SessionEvent;
      const index = this.eventCount + pending.length;
      const fail = (rule: string, message: string) => problems.push({ severity: 'error', rule, message: `appended event ${pending.length + 1} (seq ${index}): ${message}`, seq: index });
      if (!isLosslessJson(event)) fail('json.lossless-values', 'is not losslessly JSON-serializable (-0 or a non-finite number)');
      const envelope = checkSeedEnvelope(event as unknown as Record<string, unknown>, index);
      if (envelope) fail(envelope.rule, envelope.message);
      else if (event.type === 'request/header' && (event.data as { reason?: unknown })?.reason === 'fallback') fail('legacy.refused', 'request/header reason "fallback" is retired');
      else if (event.type === 'request/header-delta' || event.type === 'mode/set') fail('legacy.refused', `${event.type} is a retired event type`);
      else {
        try {
          const plan = fold.plan(event, index, lookup);
          if (fold !== this.fold) fold.apply(plan);
        } catch (error) {
          fail(error instanceof SurfaceError ? error.rule : 'surface.marker-shape', (error as Error).message);
        }
      }
      pending.push(event);
      if (problems.length > 0) break;
    }
    return problems;
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
    const lines = events.map((e) => serializeEvent(e as unknown as SessionEvent));
    this.bytes.append(new TextEncoder().encode(lines.map((l) => l + '\n').join('')));
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
    const diagnosticsBefore = this.diags.length;
    this.bytes.append(appended);
    this.ingest();
    return { added: this.eventCount - before, diagnostics: this.diags.slice(diagnosticsBefore) };
  }

  /** Byte offset up to which complete lines have been read (the rest is a torn or growing tail). */
  get scannedBytes(): number {
    return this.scanPos;
  }

  get name(): string {
    return this.fileName;
  }
}

/** Names a seq gap: a non-object line is damage; a row-shaped line (seq0, no seq) has a tag we cannot decode. */
function gapRule(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'jsonl.damaged-line';
  return 'seq0' in value && !('seq' in value) ? 'rows.decode' : 'seq.contiguity';
}

/**
 * A batch to append as plain JSON copies, or the refusal: values dsh's lossless JSON rule cannot write
 * (Date, undefined, functions, symbols, BigInt, cycles, throwing getters) are refused before anything.
 */
function plainEvents(input: unknown): SessionEvent[] | Diagnostic {
  if (!Array.isArray(input)) return badInput('an append takes an array of events', input);
  const out: SessionEvent[] = [];
  for (let i = 0; i < input.length; i++) {
    let why: string | undefined;
    let event: unknown;
    try {
      event = input[i];
      why = typeof event !== 'object' || event === null || Array.isArray(event) ? 'not an object' : notJsonReason(event);
    } catch {
      why = 'unreadable';
    }
    if (why !== undefined) return { severity: 'error', rule: 'json.lossless-values', message: `appended event ${i + 1} is not plain JSON (${why}): dsh writes only lossless JSON` };
    out.push(cloneJson(event as SessionEvent));
  }
  return out;
}

/** Freezes a JSON tree (iteratively: deep nesting is fine). */
function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'object' && current !== null && !Object.isFrozen(current)) {
      Object.freeze(current);
      for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
    }
  }
  return value;
}

/** Our wording of a refusal: where, which rule, and dsh's own words. */
function ourWording(refusal: Refusal): string {
  const where = refusal.line !== undefined ? `line ${refusal.line}${refusal.seq !== undefined ? ` (seq ${refusal.seq})` : ''}` : refusal.seq !== undefined ? `seq ${refusal.seq}` : 'the log';
  return `${where}: ${refusal.rule}: ${refusal.dshError}`;
}
