// The v2→v3 migration. v3 holds the system prompt as the first surface node, a `system/message`,
// instead of in each request header. The migration appends an empty system message right after the
// first `step/start` (the protected head), and before every request header whose prompt differs from
// the current one it inserts a system message replacing exactly the head, so the model sees the same
// prompt at the same point. Surface before the first step has nowhere to put the head without changing
// chronology, so such a session is refused.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { sha256Hex } from '../../sha256';
import type { EventRun, EventSink, FormatEvent, FormatMigration, LogicalHeader, MigrationStage, MigrationStageContext } from '../types';
import { assertV2Header } from '../v1-to-v2/v2-header';
import { formatCount, type JsonObject } from '../json';
import { canonicalV3Event, renamePtcVocabulary } from './canonical-v3';
import { objectAt } from '../v1-to-v2/v2-checks';
import { remapEvent } from './remap-references';
import { admitV2SourceEvent } from './v2-source-admission';
import { assertV3Header } from './v3-header';
import { SYSTEM_PROMPT_PLUGIN, V3_SURFACE_TYPES } from './v3-vocabulary';

class V2ToV3Stage implements MigrationStage {
  readonly headerInheritedEventCount: number | undefined;
  private readonly header: LogicalHeader;
  /** Source seq → target seq (sources are dense, so an array). */
  private readonly mapping: number[] = [];
  private readonly sourceMessageIds = new Set<unknown>();
  private readonly generatedIds = new Set<string>();
  private targetSeq = 0;
  private sourceCut: number | undefined;
  private targetCut: number | undefined;
  private lastForeignDeliverySeq: number | undefined;
  private openStep: { turn: unknown; step: unknown } | undefined;
  /** The target seq of the current system head, once the first step has opened. */
  private head: number | undefined;
  private prompt = '';

  constructor(private readonly context: MigrationStageContext) {
    assertV2Header(context.sourceHeader);
    this.header = context.sourceHeader;
    this.sourceCut = this.header.isSeeded ? undefined : 0;
    this.targetCut = this.sourceCut;
    this.headerInheritedEventCount = this.sourceCut;
  }

  transformEvent(event: FormatEvent, out: EventSink): void {
    if (event.seq !== this.mapping.length) throw new SessionFormatError('format v2 source events must be dense');
    admitV2SourceEvent(event);
    this.noteMessageIds(event);
    let source = event;
    const data = objectAt(event.data, event.type);
    if (event.type === 'request/header') {
      const { system, ...header } = objectAt(data.header, 'request header');
      const prompt = typeof system === 'string' ? system : '';
      if (prompt !== this.prompt) this.emitSystem(prompt, event, out);
      source = { ...event, data: { ...data, header } };
    }
    if (V3_SURFACE_TYPES.has(event.type) && this.head === undefined)
      throw new SessionFormatUnsupportedMigrationError(
        'format v2 surface before first step cannot acquire a system head without changing chronology',
      );
    if (event.type === 'session/end-seed' && data.inherited === true) {
      if (!this.header.isSeeded) throw new SessionFormatError('format v2 unseeded Session contains an inherited end-seed marker');
      this.sourceCut = event.seq;
      this.targetCut = this.targetSeq;
    }
    if (event.type === 'session-log-deepseek/delivery-accepted') {
      if (data.sessionFormatVersion === 3) throw new SessionFormatError('format v2 delivery marker claims target format v3');
      if (data.sessionFormatVersion === 2 && data.sessionId !== this.header.id) this.lastForeignDeliverySeq = event.seq;
    }
    const target = remapEvent(source, this.targetSeq, this.mapping);
    this.mapping.push(this.targetSeq++);
    out.emitEvent(canonicalV3Event(renamePtcVocabulary(target)));
    if (event.type === 'step/start') {
      this.openStep = { turn: data.turn, step: data.step };
      if (this.head === undefined) this.emitSystem('', event, out);
    } else if (event.type === 'step/end' || event.type === 'turn/end') this.openStep = undefined;
  }

  transformRun(run: EventRun, out: EventSink): void {
    for (const event of run.expand()) this.transformEvent(event, out);
  }

  finish(): number {
    const cut = formatCount(this.sourceCut, 'format v2 inherited end-seed marker');
    const declared = this.context.sourceInheritedEventCount as number | undefined;
    if (declared !== undefined && declared !== cut)
      throw new SessionFormatError('format v2 inherited end-seed marker disagrees with its source cut');
    // A v2 delivery marker naming another session is legitimate only as the parent's, before the cut.
    if (this.lastForeignDeliverySeq !== undefined && (this.header.parentSession === undefined || this.lastForeignDeliverySeq >= cut))
      throw new SessionFormatError('current-generation delivery marker names the wrong Session');
    return formatCount(this.targetCut, 'format v3 inherited event count');
  }

  private noteMessageIds(event: FormatEvent): void {
    const data = objectAt(event.data, event.type);
    const messages =
      event.type === 'user/message'
        ? [data]
        : event.type === 'assistant/message' || event.type === 'tool/result'
          ? [objectAt(data.message, 'message')]
          : event.type === 'agent/inbox/spliced'
            ? (data.inserted as JsonObject[])
            : event.type === 'session/title-llm-request'
              ? (data.messages as JsonObject[])
              : [];
    for (const message of messages) {
      if (this.generatedIds.has(message.id as string))
        throw new SessionFormatUnsupportedMigrationError('source message id collides with a generated system message id');
      this.sourceMessageIds.add(message.id);
    }
  }

  /** A system message with `prompt` in the open step, as the head or replacing exactly the head. */
  private emitSystem(prompt: string, anchor: FormatEvent, out: EventSink): void {
    if (this.openStep === undefined)
      throw new SessionFormatUnsupportedMigrationError(
        'format v2 changed request prompt outside an open step cannot retain source chronology',
      );
    const id = systemMessageId(this.header.id, anchor);
    if (this.sourceMessageIds.has(id) || this.generatedIds.has(id))
      throw new SessionFormatUnsupportedMigrationError('generated system message id collides with an existing message id');
    this.generatedIds.add(id);
    const seq = this.targetSeq++;
    const message = {
      id,
      role: 'system',
      source: { kind: 'plugin', plugin: SYSTEM_PROMPT_PLUGIN },
      content: prompt === '' ? [] : [{ type: 'text', text: prompt }],
    };
    const event: FormatEvent = { type: 'system/message', seq, time: anchor.time, data: { ...this.openStep, message } };
    if (this.head === undefined) event.surfaceOp = 'append';
    else {
      event.surfaceOp = { op: 'replace', start: this.head, end: this.head };
      event.sourceEventSeqs = [this.head];
    }
    out.emitEvent(canonicalV3Event(event));
    this.head = seq;
    this.prompt = prompt;
  }
}

/** The stable id of an inserted system message: a digest of the session and the source event it stands before or after. */
export function systemMessageId(sessionId: string, anchor: FormatEvent): string {
  return `v2-to-v3-system-${sha256Hex(JSON.stringify(['session-format-v2-to-v3', sessionId, anchor.seq, anchor.type]))}`;
}

export const v2ToV3Migration: FormatMigration = {
  name: '@deepseek-ai/dsh-session-format-v2-to-v3',
  edge: 'v2-to-v3',
  fromVersion: 2,
  toVersion: 3,
  migrateHeader(header) {
    assertV2Header(header);
    return { ...header, version: 3, ...(header.agentPreset === 'code' ? { agentPreset: 'ptc' } : {}) };
  },
  validateTargetHeader: assertV3Header,
  createStage: (context) => new V2ToV3Stage(context),
};
