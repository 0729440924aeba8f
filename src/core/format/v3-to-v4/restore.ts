// The native v4 restore (spec §6): what a v4 reader refuses in a whole artifact. Two levels, as dsh has
// them: the rules this generation owns (vocabulary, per-event fields, inherited cut, relationships),
// which a migrated artifact also meets, and on top of them the installed session's checks of each
// event's envelope, surface metadata, message and request header, which a log read as v4 meets.
import type { Artifact } from '../types';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { assertV4Header } from './header';
import { assertNoRetiredSyntax } from './rules/retired-syntax';
import { assertSystemMessageFields } from './rules/system-message';
import { assertForkResultIdentity } from './rules/fork-result';
import { assertDeveloperRules } from './rules/developer-message';
import { assertV4Lifecycle } from './rules/lifecycle';
import { assertSessionEventShape } from './rules/session-shape';
import { assertToolResultRewrites } from './rules/tool-result-rewrite';
import { assertToolRoleResult } from './tool-role';
import { assertProducerOwnedSource } from './message-sources';
import { eventMessages } from './message-slots';
import { checkCatalogFact } from './child-catalog';
import { activeDeliverySession, WRONG_SESSION_DELIVERY } from './delivery';
import { isJsonObject, formatCount } from '../json';
import { V4_EVENT_TYPES } from './vocabulary';

/**
 * The rules of generation 4 itself (dsh's restoreReleasedV4Artifact). An unknown type is refused
 * unless ignorable; an ignorable one is kept opaque: none of its fields, surface metadata included,
 * is read. Returns the artifact unchanged.
 */
export function restoreV4Generation(artifact: Artifact, knownTypes: ReadonlySet<string> = V4_EVENT_TYPES): Artifact {
  assertV4Header(artifact.header);
  const cut = formatCount(artifact.inheritedEventCount, 'format v4 inherited event count');
  if (cut > artifact.events.length) throw new SessionFormatError('format v4 inherited event count exceeds its events');
  if (!artifact.header.isSeeded && cut !== 0) throw new SessionFormatError('unseeded format v4 Session has inherited events');
  let lastInheritedMarker: number | undefined;
  artifact.events.forEach((event, index) => {
    const known = knownTypes.has(event.type);
    if (!known && event.ignorable !== true) {
      throw new SessionFormatUnsupportedMigrationError(
        `format v4 contains unknown event type ${JSON.stringify(event.type)} at seq ${index}`,
      );
    }
    if (event.seq !== index) throw new SessionFormatError(`format v4 event ${index} is not dense`);
    if (!known) return;
    assertNoRetiredSyntax(event);
    assertSystemMessageFields(event);
    assertToolRoleResult(event);
    assertForkResultIdentity(event);
    if (event.type === 'session/end-seed' && isJsonObject(event.data) && event.data.inherited === true) lastInheritedMarker = index;
  });
  if (artifact.header.isSeeded && lastInheritedMarker !== cut) {
    throw new SessionFormatError('format v4 seeded header disagrees with its last inherited end-seed marker');
  }
  if (!artifact.header.isSeeded && lastInheritedMarker !== undefined) {
    throw new SessionFormatError('format v4 unseeded Session contains an inherited end-seed marker');
  }
  assertV4Relationships(artifact, knownTypes);
  return artifact;
}

/** Developer rules, message sources, delivery ownership and catalog uniqueness, then the lifecycle. */
function assertV4Relationships(artifact: Artifact, knownTypes: ReadonlySet<string>): void {
  const catalogChildren = new Set<string>();
  for (const event of artifact.events) {
    if (!knownTypes.has(event.type)) continue;
    assertDeveloperRules(event);
    for (const message of eventMessages(event)) assertProducerOwnedSource(message);
    const deliverySession = activeDeliverySession(event, 4);
    const inheritedFromParent = artifact.header.parentSession !== undefined && event.seq < artifact.inheritedEventCount;
    if (deliverySession !== undefined && !inheritedFromParent && deliverySession !== artifact.header.id) {
      throw new SessionFormatError(WRONG_SESSION_DELIVERY);
    }
    if (event.type === 'subagent/catalog' && event.seq >= artifact.inheritedEventCount) {
      const id = checkCatalogFact(event.data).childId as string;
      if (catalogChildren.has(id)) throw new SessionFormatError(`duplicate catalog child ${id}`);
      catalogChildren.add(id);
    }
  }
  assertV4Lifecycle(artifact, knownTypes);
}

/**
 * The whole v4 restore of a log read as v4 (dsh's catalog with `validation: 'current'`): the
 * generation's rules, then the installed session's per-event checks and its rule for rewritten results.
 */
export function restoreV4(artifact: Artifact): Artifact {
  restoreV4Generation(artifact);
  for (const event of artifact.events) assertSessionEventShape(event, V4_EVENT_TYPES);
  assertToolResultRewrites(artifact, V4_EVENT_TYPES);
  return artifact;
}
