// How a log's bytes reach its parts. The header decides the reader: a v0 log is read line by line by
// the line scanner, each kept line going through dsh 0.1.1's stages (event-stages.ts); a later
// generation is read by dsh's format layer (generation-reading.ts), which hands on the events it keeps
// (validated-events.ts) and gives the verdict. The loader is the sink both readers call back into, and
// it holds the format layer's reading of the file, which also answers what today's dsh makes of it.
import type { Diagnostic, SessionEvent } from '../types';
import type { LogFacts } from '../check/log-facts';
import type { FormatRead } from '../format/catalog';
import { CURRENT_FORMAT_VERSION } from '../format/generations';
import { surfaceRulesOf } from '../surface/surface-rules';
import { SurfaceState } from '../surface/surface-state';
import type { Utf8Slicer } from './columns';
import { EventIndex } from './event-index';
import { keepEvent, keepHeader as keepV0Header } from './event-stages';
import { GenerationReading, expandStoredRanges, type GenerationReadOptions, type GenerationSink } from './generation-reading';
import { generationToRead, type NamedGeneration } from './generation-choice';
import type { HeaderRead } from './header';
import type { LineSink } from './line-scanner';
import { tornTailBytes } from './log-diagnostics';
import type { LogParts } from './log-parts';
import { keepDecoded, keepRow } from './validated-events';
import { VerdictKeeper, type Refusal } from './verdict';

export class LogLoader implements LineSink, GenerationSink {
  /** The findings as the header left them, while a later generation's first read hands its events on. */
  private verdictsBeforeDecoding: VerdictKeeper | undefined;
  /** A v0 log's reading by the format layer, made when today's dsh's verdict is first asked for. */
  private upgradeReading: GenerationReading | undefined;

  /** `newFacts`: fresh whole-log facts for the log, when a refused read starts them again. */
  constructor(
    private readonly parts: LogParts,
    private readonly named: NamedGeneration,
    private readonly utf8Slicer: Utf8Slicer | undefined,
    private readonly newFacts: () => LogFacts,
  ) {}

  /** Reads the header and every complete line (see SessionLog.ingest). */
  ingest(budgetMs: number, onProgress: ((fraction: number) => void) | undefined): boolean {
    const { scanner } = this.parts;
    if (!scanner.readHeaderFirst(this)) return true;
    const generation = this.parts.generation;
    if (generation) {
      this.verdictsBeforeDecoding = this.eventCount === 0 ? new VerdictKeeper(this.parts.verdicts) : undefined;
      generation.readInto(scanner.bytes.view(), this);
      this.verdictsBeforeDecoding = undefined;
      scanner.committed = scanner.bytes.length - tornTailBytes(this.parts);
      onProgress?.(1);
      return true;
    }
    return scanner.scan(this, budgetMs, onProgress);
  }

  /** Events kept so far. */
  get eventCount(): number {
    return this.parts.index.count;
  }

  /** The seq the next kept event must carry. */
  get expectedSeq(): number {
    return this.parts.index.count;
  }

  keepHeader(read: HeaderRead): void {
    const version = generationToRead(read.raw, this.named.nameVersion);
    if (version === undefined) return keepV0Header(this.parts, read);
    this.parts.generation = new GenerationReading(version, this.generationOptions());
    this.readAsGeneration(this.parts.generation);
  }

  keepEvent(stored: Record<string, unknown>, _text: string, fileLine: number, offset: number, length: number): void {
    keepEvent(this.parts, stored, fileLine, offset, length);
  }

  keepRow(row: Record<string, any>, members: number, _text: string, fileLine: number, offset: number, length: number): void {
    keepRow(this.parts, row, members, fileLine, offset, length);
  }

  keepDecoded(event: SessionEvent, fileLine: number, offset: number, length: number, member: number): void {
    keepDecoded(this.parts, event, fileLine, offset, length, member);
  }

  refuse(stage: Parameters<LineSink['refuse']>[0], refusal: Refusal): void {
    this.parts.verdicts.refuse(stage, refusal);
  }

  hasRefusal(stage: Parameters<LineSink['hasRefusal']>[0]): boolean {
    return this.parts.verdicts.has(stage);
  }

  report(d: Diagnostic): void {
    this.parts.verdicts.report(d);
  }

  /**
   * dsh refused a later generation's log after its first read had handed the events on as they were
   * decoded: like dsh's read, the model keeps none of them. The index, fold, facts and findings start
   * again from where the header left them.
   */
  forgetDecoded(): void {
    const parts = this.parts;
    const reading = parts.generation;
    if (!reading || !this.verdictsBeforeDecoding) return;
    parts.verdicts = this.verdictsBeforeDecoding;
    parts.index = new EventIndex(parts.scanner.bytes);
    parts.state = new SurfaceState(parts.index, () => parts.verdicts.has('closers'));
    if (parts.gathered) parts.gathered = this.newFacts();
    parts.foldProblems.length = 0;
    this.readAsGeneration(reading);
  }

  /** The fold and the index take a later generation's events as its rules and rows have them. */
  private readAsGeneration(reading: GenerationReading): void {
    this.parts.state.useRules(surfaceRulesOf(reading.version));
    if (reading.version >= CURRENT_FORMAT_VERSION) this.parts.state.closerSource = () => reading.closers ?? [];
    this.parts.index.storedEvent = reading.version >= 1 ? expandStoredRanges : undefined;
  }

  private generationOptions(): GenerationReadOptions {
    return { utf8Slicer: this.utf8Slicer, canonicalNameVersion: this.named.canonicalNameVersion };
  }

  /**
   * What today's dsh does when it opens this file: migrates it to the current format (the migrated
   * log's verdict and digest, when `digest`), or refuses, at which edge and why.
   */
  upgradeRead(digest: boolean): FormatRead {
    const text = this.parts.scanner.bytes.view();
    return this.formatReading().upgrade(text, digest);
  }

  /** The file migrated to generation `target` (a format version) and restored as it. */
  formRead(target: number): FormatRead {
    return this.formatReading().readAs(this.parts.scanner.bytes.view(), target);
  }

  /** The format layer's reading of this file: a later generation's own, or a v0 log's, made when first asked for. */
  private formatReading(): GenerationReading {
    if (this.parts.generation) return this.parts.generation;
    this.upgradeReading ??= new GenerationReading(0, this.generationOptions());
    return this.upgradeReading;
  }
}
