// The v0 → v1 edge: the layout is unchanged, the header's version goes from 0 to 1, legacy names and
// payloads are normalised (legacy-events.ts, legacy-messages.ts), and every event's payload is then
// checked against the released inventory, so an unknown or malformed historical event refuses the
// migration, the source kept as it is.
import { SessionFormatError } from '../../errors';
import { jsonObject } from '../../json';
import type { EventRun, EventSink, FormatEvent, FormatMigration, LogicalHeader, MigrationStage, MigrationStageContext } from '../../types';
import { isAssistantChunkRun } from '../codec';
import { assertEventPayload, assertReleasedHeader } from '../validation';
import {
  normalizeCompaction,
  normalizeRequestHeader,
  normalizeRetry,
  normalizeSteering,
  normalizeTurnEnd,
  normalizeTurnStart,
  refuseRetiredTypes,
  renameLegacyCompaction,
  type CompactionGroup,
} from './legacy-events';
import { eventMessageId, upgradeLegacyMessage } from './legacy-messages';

function assertHeaderVersion(header: LogicalHeader, version: number): void {
  if (header.version !== version) throw new SessionFormatError(`expected format v${version} header`);
}

class V0ToV1Stage implements MigrationStage {
  readonly headerInheritedEventCount: number;
  private readonly sessionId: string;
  private readonly messageIds = new Map<unknown, string>();
  private readonly retryIds = new Map<string, string>();
  private readonly compaction: CompactionGroup = {};

  constructor(private readonly context: MigrationStageContext) {
    assertHeaderVersion(context.sourceHeader, 0);
    // A v0 decoder always knows its cut (the header's seedLength).
    this.headerInheritedEventCount = context.sourceInheritedEventCount ?? 0;
    this.sessionId = context.sourceHeader.id;
  }

  transformEvent(event: FormatEvent, out: EventSink): void {
    const normalized = this.normalize(event);
    this.assertDeliveryMarker(normalized);
    out.emitEvent(normalized);
  }

  transformRun(run: EventRun, out: EventSink): void {
    // Packed chunk rows pass whole: v1 has the same layout, and v1 → v2 folds them.
    if (isAssistantChunkRun(run)) out.emitRun(run);
    else for (const event of run.expand()) this.transformEvent(event, out);
  }

  finish(): number {
    return this.headerInheritedEventCount;
  }

  private normalize(event: FormatEvent): FormatEvent {
    const sid = this.sessionId;
    const named = renameLegacyCompaction(event);
    refuseRetiredTypes(named, sid);
    let current = normalizeTurnEnd(normalizeTurnStart(named, sid), sid);
    current = normalizeSteering(normalizeRequestHeader(current, sid), sid);
    current = normalizeCompaction(normalizeRetry(current, sid, this.retryIds), sid, this.compaction);
    current = upgradeLegacyMessage(current, sid, this.messageIds);
    if (current.type !== 'assistant/chunk') assertEventPayload(current, 0);
    const messageId = eventMessageId(current);
    if (messageId !== undefined) this.messageIds.set(current.seq, messageId);
    return current;
  }

  /** A v0 delivery marker must name this session unless it was inherited from the parent. */
  private assertDeliveryMarker(event: FormatEvent): void {
    if (event.type !== 'session-log-deepseek/delivery-accepted') return;
    const data = jsonObject(event.data, `${event.type} ${event.seq} data`);
    const header = this.context.sourceHeader;
    const inherited = header.parentSession !== undefined && event.seq < this.headerInheritedEventCount;
    if ((data['sessionFormatVersion'] ?? 0) === 0 && !inherited && data['sessionId'] !== header.id)
      throw new SessionFormatError('current-generation delivery marker names the wrong Session');
  }
}

export const migrationV0ToV1: FormatMigration = Object.freeze({
  name: '@deepseek-ai/dsh-session-format-v0-to-v1',
  edge: 'v0-to-v1',
  fromVersion: 0,
  toVersion: 1,
  migrateHeader(header: LogicalHeader): LogicalHeader {
    assertHeaderVersion(header, 0);
    return { ...header, version: 1 };
  },
  validateTargetHeader: (header: LogicalHeader) => assertReleasedHeader(header, 1),
  createStage: (context: MigrationStageContext) => new V0ToV1Stage(context),
});
