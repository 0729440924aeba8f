// The restore of a whole v2 artifact (read natively or migrated): header, inherited cut against its
// marker, closed vocabulary, exact envelopes, dense seqs, then the relationships between events with
// `assistant/attempt` as an event of an open step. Payload members are not re-checked here: the codec
// is payload-neutral and dsh validates payloads when it migrates them onwards.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import type { Artifact } from '../types';
import { assertArtifactRelationships, type RelationshipExtensions } from '../v0-to-v1';
import { assertV2Header } from './v2-header';
import { V2_EVENT_DISPOSITIONS, V2_SURFACE_TYPES } from './v2-vocabulary';
import { formatCount, formatSafeInteger, isJsonObject } from '../json';
import { hasEntry, requireExactFields } from './v2-checks';

const REQUIRED = ['type', 'seq', 'time', 'data'];
const SURFACE_OPTIONAL = ['ignorable', 'sourceEventSeqs', 'surfaceOp'];
const LOG_OPTIONAL = ['ignorable'];

export const V2_RELATIONSHIP_EXTENSIONS: RelationshipExtensions = {
  stepEvents: new Set(['assistant/attempt']),
  // The title request's framed text was written from v1 seqs; the migration keeps it byte for byte.
  preservedSourceTitleRequestText: true,
};

/**
 * Validates a v2 artifact as dsh's v2 restore does and returns it unchanged. `installedTypes` are
 * event types outside the v2 inventory that the reader still interprets (a later generation's
 * restore passes its own); unknown types are admitted only with `ignorable: true`.
 */
export function restoreV2Artifact(artifact: Artifact, installedTypes: ReadonlySet<string> = new Set()): Artifact {
  assertV2Header(artifact.header);
  const cut = formatCount(artifact.inheritedEventCount, 'format v2 inherited event count');
  if (cut > artifact.events.length) throw new SessionFormatError('format v2 inherited event count exceeds its events');
  if (!artifact.header.isSeeded && cut !== 0) throw new SessionFormatError('unseeded format v2 Session has inherited events');
  let lastInheritedMarker: number | undefined;
  const events = artifact.events;
  for (let index = 0; index < events.length; index++) {
    const event: unknown = events[index];
    const label = `format v2 event ${index}`;
    if (!isJsonObject(event)) throw new SessionFormatError(`${label} must be an object`);
    const type = event.type;
    if (typeof type !== 'string') throw new SessionFormatError(`${label} type must be a string`);
    const known = hasEntry(V2_EVENT_DISPOSITIONS, type);
    if (!known && !installedTypes.has(type) && event.ignorable !== true)
      throw new SessionFormatUnsupportedMigrationError(`format v2 contains unknown event type ${JSON.stringify(type)} at seq ${index}`);
    requireExactFields(event, REQUIRED, !known || V2_SURFACE_TYPES.has(type) ? SURFACE_OPTIONAL : LOG_OPTIONAL, label);
    if (event.seq !== index) throw new SessionFormatError(`${label} is not dense`);
    formatSafeInteger(event.time, `${label} time`);
    if (event.ignorable !== undefined && event.ignorable !== true)
      throw new SessionFormatError(`${label} ignorable must be true when present`);
    if (type === 'session/end-seed') {
      if (!isJsonObject(event.data)) throw new SessionFormatError(`session/end-seed ${index} data must be an object`);
      if (event.data.inherited === true) lastInheritedMarker = index;
    }
  }
  if (artifact.header.isSeeded && lastInheritedMarker !== cut)
    throw new SessionFormatError('format v2 seeded header disagrees with its last inherited end-seed marker');
  if (!artifact.header.isSeeded && lastInheritedMarker !== undefined)
    throw new SessionFormatError('format v2 unseeded Session contains an inherited end-seed marker');
  assertArtifactRelationships(artifact, V2_RELATIONSHIP_EXTENSIONS);
  return artifact;
}
