// Exact validation of released v0/v1 artifacts: the logical header, event envelopes and coordinates,
// surface metadata, and each known payload against its disposition (dsh's messages throughout).
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { assertExactKeys, formatCount, formatSafeInteger, isLosslessJson, jsonObject, jsonString } from '../json';
import type { Artifact, FormatEvent, LogicalHeader } from '../types';
import { releasedDisposition } from './dispositions';
import { assertPayloadSemantics } from './payload';

const HEADER_REQUIRED = ['version', 'id', 'createdAt', 'isSeeded', 'delegationDepth'];
const HEADER_OPTIONAL = ['cwd', 'parentSession', 'origin', 'agentPreset'];
const EVENT_REQUIRED = ['type', 'seq', 'time', 'data'];
const SURFACE_OPTIONAL = ['ignorable', 'sourceEventSeqs', 'surfaceOp'];
const LOG_OPTIONAL = ['ignorable'];
const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result']);
/** Names a v0 source may still hold, normalised or refused by the v0 → v1 edge. */
const LEGACY_SOURCE_TYPES = new Set([
  'steering/message',
  'request/header-delta',
  'mode/set',
  'compact/start',
  'compact/summary',
  'compact/end',
  'compact/prune',
]);

/** dsh's absolute-path test (POSIX: the corpus and dsh's published runs are POSIX). */
export function isAbsoluteCwd(path: string): boolean {
  return path.startsWith('/');
}

/** The logical header rules shared by v0 and v1 (`format vN header …`). */
export function assertReleasedHeader(header: LogicalHeader, version: number): void {
  const label = `format v${version} header`;
  const record = jsonObject(header, label);
  assertExactKeys(record, HEADER_REQUIRED, HEADER_OPTIONAL, label);
  if (record['version'] !== version) throw new SessionFormatError(`expected format v${version} header`);
  if (typeof record['id'] !== 'string') throw new SessionFormatError(`${label} id must be a string`);
  formatCount(record['createdAt'], `${label} createdAt`);
  if (typeof record['isSeeded'] !== 'boolean') throw new SessionFormatError(`${label} isSeeded must be a boolean`);
  formatCount(record['delegationDepth'], `${label} delegationDepth`);
  for (const key of ['cwd', 'parentSession', 'agentPreset'])
    if (record[key] !== undefined && typeof record[key] !== 'string') throw new SessionFormatError(`${label} ${key} must be a string`);
  if (typeof record['cwd'] === 'string' && !isAbsoluteCwd(record['cwd'])) throw new SessionFormatError(`${label} cwd must be absolute`);
  if (record['origin'] !== undefined && record['origin'] !== 'subagent') throw new SessionFormatError(`${label} origin must be "subagent"`);
}

/** What the envelope walk of a whole artifact admits. */
export interface CoordinatePolicy {
  /** A v0 source: retired names are admitted, and an unknown type is a historical refusal. */
  legacySource?: boolean;
  /** Event types the reader knows; an unknown type not marked ignorable is refused. */
  knownEventTypes?: ReadonlySet<string>;
  /** Unknown types stay opaque. */
  vocabularyNeutral?: boolean;
  /** Log-only events may not carry surface metadata, and surface metadata is checked. */
  frozenEnvelope?: boolean;
}

/** Inherited cut, dense seqs, safe-integer times, envelope members (`Session event N …`). */
export function assertArtifactCoordinates(artifact: Artifact, policy: CoordinatePolicy = {}): void {
  const cut = formatCount(artifact.inheritedEventCount, 'Session inheritedEventCount');
  if (cut > artifact.events.length) throw new SessionFormatError('Session inheritedEventCount exceeds its event count');
  if (!artifact.header.isSeeded && cut !== 0) throw new SessionFormatError('unseeded Session inheritedEventCount must be 0');
  const legacy = policy.legacySource === true;
  for (let index = 0; index < artifact.events.length; index++) {
    const record = jsonObject(artifact.events[index], `Session event ${index}`);
    const type = record['type'];
    if (typeof type !== 'string') throw new SessionFormatError(`Session event ${index} type must be a string`);
    const disposition = releasedDisposition(type);
    const known = policy.knownEventTypes?.has(type) === true;
    const ignorableUnknown = !legacy && !known && record['ignorable'] === true;
    if (!known && !(legacy && LEGACY_SOURCE_TYPES.has(type)) && !ignorableUnknown && policy.vocabularyNeutral !== true) {
      if (legacy)
        throw new SessionFormatUnsupportedMigrationError(
          `format v0 contains unknown historical event type ${jsonString(type)} at seq ${index}; migration refuses unknown historical events even when ignorable`,
        );
      throw new SessionFormatUnsupportedMigrationError(
        `format v1 contains unknown required event type ${jsonString(type)} at seq ${index}`,
      );
    }
    const surface = disposition !== undefined ? SURFACE_TYPES.has(type) : type === 'steering/message';
    const optional = policy.frozenEnvelope ? (surface ? SURFACE_OPTIONAL : LOG_OPTIONAL) : SURFACE_OPTIONAL;
    assertExactKeys(record, EVENT_REQUIRED, optional, `Session event ${index}`);
    if (record['seq'] !== index) throw new SessionFormatError(`Session event ${index} has non-dense seq ${jsonString(record['seq'])}`);
    formatSafeInteger(record['time'], `Session event ${index} time`);
    if (record['ignorable'] !== undefined && record['ignorable'] !== true)
      throw new SessionFormatError(`Session event ${index} ignorable must be true when present`);
    if (policy.frozenEnvelope && surface) assertSurfaceMetadata(record, index, type, 'allow-empty-assistant');
  }
}

/** `sourceEventSeqs` and `surfaceOp` of one surface event, in the v0–v2 spelling (`start`/`end`). */
export function assertSurfaceMetadata(
  record: Record<string, unknown>,
  seq: number,
  type: string,
  assistantSources: 'allow-empty-assistant' | 'forbid-assistant',
): void {
  const sources = record['sourceEventSeqs'];
  if (type === 'assistant/message' && sources !== undefined && assistantSources === 'forbid-assistant')
    throw new SessionFormatError(`assistant/message ${seq} retains obsolete chunk provenance`);
  if (sources !== undefined) {
    if (!Array.isArray(sources)) throw new SessionFormatError(`${type} ${seq} sourceEventSeqs must be an array`);
    const seen = new Set<number>();
    for (const source of sources) {
      const current = formatCount(source, `${type} ${seq} sourceEventSeqs member`);
      if (current >= seq || seen.has(current)) throw new SessionFormatError(`${type} ${seq} sourceEventSeqs must be unique earlier seqs`);
      seen.add(current);
    }
    if (sources.length === 0 && type !== 'assistant/message')
      throw new SessionFormatError(`${type} ${seq} sourceEventSeqs must be non-empty`);
  }
  const operation = record['surfaceOp'];
  if (operation === undefined || operation === 'append') return;
  const replacement = jsonObject(operation, `${type} ${seq} surfaceOp`);
  assertExactKeys(replacement, ['op', 'start', 'end'], [], `${type} ${seq} surfaceOp`);
  if (replacement['op'] !== 'replace') throw new SessionFormatError(`${type} ${seq} surfaceOp must replace`);
  const start = formatCount(replacement['start'], `${type} ${seq} surface start`);
  const end = formatCount(replacement['end'], `${type} ${seq} surface end`);
  if (start >= seq || end >= seq) throw new SessionFormatError(`${type} ${seq} has an invalid surface replacement`);
}

/**
 * One known event's payload, after legacy normalisation: the exact members of its disposition, its
 * opaque members lossless, then its nested semantics at payload generation `version`.
 */
export function assertEventPayload(event: FormatEvent, version: number): void {
  const disposition = releasedDisposition(event.type);
  if (disposition === undefined)
    throw new SessionFormatUnsupportedMigrationError(
      `format v0 contains unknown historical event type ${jsonString(event.type)} at seq ${event.seq}; migration refuses unknown historical events even when ignorable`,
    );
  const data = jsonObject(event.data, `${event.type} ${event.seq} data`);
  if (event.type === 'subagent/descriptor' && data['version'] !== 3) {
    // Descriptor versions other than 3 are a later package's to interpret: v0 refuses them, v1 keeps them.
    const descriptorVersion = formatCount(data['version'], `${event.type} ${event.seq} version`);
    if (version === 0)
      throw new SessionFormatUnsupportedMigrationError(
        `${event.type} ${event.seq} uses unsupported descriptor version ${descriptorVersion}`,
      );
    return;
  }
  const optional =
    version === 1 && event.type === 'session-log-deepseek/delivery-accepted'
      ? [...disposition.optional, 'sessionFormatVersion']
      : disposition.optional;
  assertExactKeys(data, disposition.required, optional, `${event.type} ${event.seq} data`);
  for (const key of disposition.opaque)
    if (Object.hasOwn(data, key) && !isLosslessJson(data[key]))
      throw new SessionFormatError(`${event.type} ${event.seq} opaque ${key} is not lossless JSON`);
  assertPayloadSemantics(event, version);
}
