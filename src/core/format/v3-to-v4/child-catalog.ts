// Parent `subagent/catalog` facts from direct child logs (spec §5 "v3 → v4", parent catalog): a v3
// parent may lack the catalog entry of a child it spawned; the edge appends one from what the child's
// own log says (its id, creation time and its own first subagent/descriptor).
import type { Artifact } from '../types';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { isJsonObject, formatCount, type JsonObject } from '../json';

/** What a direct child's log tells its parent's catalog. */
export interface ChildCatalogEvidence {
  childId: string;
  childCreatedAt: number;
  /** How many `subagent/descriptor` events the child wrote after its inherited cut. */
  descriptorCount: number;
  /** The first of them (its data), or null when there is none. */
  descriptor: unknown;
  /** Where the child's log is, for messages. */
  sourcePath?: string;
}

/** The evidence a child log gives (read as any generation up to v3). Refuses a log that is not a direct subagent child. */
export function childCatalogEvidence(child: Artifact, sourcePath?: string): ChildCatalogEvidence {
  const header = child.header;
  if (header.origin !== 'subagent' || header.parentSession === undefined) {
    throw new SessionFormatUnsupportedMigrationError('catalog migration requires a subagent child with a direct parent');
  }
  const descriptors = child.events.filter((event) => event.type === 'subagent/descriptor' && event.seq >= child.inheritedEventCount);
  const evidence: ChildCatalogEvidence = {
    childId: header.id,
    childCreatedAt: header.createdAt,
    descriptorCount: descriptors.length,
    descriptor: descriptors[0]?.data ?? null,
  };
  if (sourcePath !== undefined) evidence.sourcePath = sourcePath;
  catalogFactOfChild(evidence);
  return evidence;
}

/** Checks evidence handed in from outside (a JSON value) before it is used. */
export function checkChildEvidence(value: unknown): ChildCatalogEvidence {
  if (!isJsonObject(value) || typeof value.childId !== 'string' || !Object.hasOwn(value, 'descriptor')) {
    throw new SessionFormatUnsupportedMigrationError('catalog migration requires historical child identity and descriptor evidence');
  }
  formatCount(value.childCreatedAt, 'catalog child creation time');
  formatCount(value.descriptorCount, 'child descriptor count');
  return value as unknown as ChildCatalogEvidence;
}

/** How a child is named in a refusal: its id, and where its log is when known. */
export function childSubject(evidence: ChildCatalogEvidence): string {
  return `Session ${evidence.childId}${typeof evidence.sourcePath === 'string' ? ` (raw log: ${evidence.sourcePath})` : ''}`;
}

/**
 * The version-0 catalog fact exactly one supported own descriptor gives, or undefined when the
 * evidence is incomplete (no descriptor, several, or an unsupported descriptor version).
 */
export function catalogFactOfChild(evidence: ChildCatalogEvidence): JsonObject | undefined {
  const descriptor = evidence.descriptor;
  if (evidence.descriptorCount !== 1 || !isJsonObject(descriptor)) return undefined;
  const version = descriptor.version;
  if (version !== 1 && version !== 2 && version !== 3) return undefined;
  if (typeof descriptor.provider !== 'string') {
    throw new SessionFormatUnsupportedMigrationError(`${childSubject(evidence)} has an invalid subagent descriptor provider`);
  }
  if (version !== 1 && descriptor.mode !== 'continuable' && descriptor.mode !== 'one-shot') {
    throw new SessionFormatUnsupportedMigrationError(`${childSubject(evidence)} has an invalid subagent descriptor mode`);
  }
  const fact: JsonObject = {
    version: 0,
    childId: evidence.childId,
    childCreatedAt: evidence.childCreatedAt,
    // A version-1 descriptor described only continuable children and had no mode.
    mode: version === 1 ? 'continuable' : descriptor.mode,
  };
  if (descriptor.label !== undefined) fact.label = descriptor.label;
  return checkCatalogFact(fact, childSubject(evidence));
}

/** The catalog entry appended when the evidence cannot say the child's mode. */
export function unknownModeFact(evidence: ChildCatalogEvidence): JsonObject {
  return { version: 1, childId: evidence.childId, childCreatedAt: evidence.childCreatedAt, mode: 'unknown' };
}

/**
 * A `subagent/catalog` payload's own fields (versions 0 and 1): a string child id, a creation time,
 * a mode (`unknown` only in version 1), a string label for a continuable child.
 */
export function checkCatalogFact(value: unknown, subject = 'subagent/catalog'): JsonObject {
  if (
    !isJsonObject(value) ||
    (value.version !== 0 && value.version !== 1) ||
    typeof value.childId !== 'string' ||
    (value.mode !== 'continuable' && value.mode !== 'one-shot' && value.mode !== 'unknown') ||
    (value.version === 0 && value.mode === 'unknown') ||
    (value.mode === 'continuable' && typeof value.label !== 'string') ||
    (value.label !== undefined && typeof value.label !== 'string')
  ) {
    throw new SessionFormatError(`${subject} requires a supported versioned catalog fact`);
  }
  formatCount(value.childCreatedAt, 'catalog child creation time');
  return value;
}
