// The whole-log facts a check reports besides dsh's verdict — provenance and the relational
// invariants — gathered as bookkeeping while the log loads: the reader hands each kept event (parsed
// once) and each packed row to both, so a check costs one pass over the text, and a followed log
// extends them event by event instead of rebuilding them.
import type { SessionEvent } from '../types';
import type { SurfaceRole } from '../read/event-index';
import { InvariantPass } from './invariants';
import { ProvenanceBuilder, type ProvenanceSource } from '../provenance/provenance-scan';
import { ProvenanceIndex } from '../provenance/provenance';

export class LogFacts {
  readonly invariants: InvariantPass;
  private readonly provenanceBuilder: ProvenanceBuilder;
  readonly provenance: ProvenanceIndex;

  /** `provenanceEdges`: false when only the diagnostics are wanted (LoadOptions.provenanceEdges). */
  constructor(log: ProvenanceSource, expectedEvents?: number, provenanceEdges = true) {
    this.invariants = new InvariantPass(log);
    this.provenanceBuilder = new ProvenanceBuilder(log, expectedEvents, provenanceEdges);
    this.provenance = new ProvenanceIndex(this.provenanceBuilder);
  }

  /**
   * One kept event, after the reader indexed it, with what the reader already knows of it: its type's
   * number (TypeId), its turn and step as numbers (undefined otherwise) and its surface role.
   */
  observeEvent(
    seq: number,
    event: SessionEvent,
    typeId: number,
    turn: number | undefined,
    step: number | undefined,
    role: SurfaceRole,
  ): void {
    this.invariants.observeEvent(seq, event, typeId, turn, step, role);
    this.provenanceBuilder.observeEvent(seq, event, typeId, turn, step);
  }

  /** One validated packed row: its turn and step are numbers (never NaN), what the log's turn() and step() give for its members. */
  observeRow(seq0: number, row: Record<string, any>, members: number): void {
    const data = row.data;
    this.invariants.observeRow(seq0, members, data.turn, data.step);
    this.provenanceBuilder.observeRow(seq0, row, members);
  }
}
