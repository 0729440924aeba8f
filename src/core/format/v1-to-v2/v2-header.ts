// The v2 header: `isSeeded` (required) replaces v0/v1's `seedLength`; the inherited cut is no longer a
// number in the header but the position of the last `session/end-seed {inherited: true}` event.
import { SessionFormatError } from '../errors';
import type { LogicalHeader } from '../types';
import { formatCount, isJsonObject, isLosslessJson } from '../json';
import { requireExactFields } from './v2-checks';

const LOGICAL_REQUIRED = ['version', 'id', 'createdAt', 'isSeeded', 'delegationDepth'];
const PHYSICAL_REQUIRED = ['type', ...LOGICAL_REQUIRED];
const OPTIONAL = ['cwd', 'parentSession', 'origin', 'agentPreset'];

/** dsh's check of a logical v2 header (what migrations hand over and the v3 header reuses). */
export function assertV2Header(header: unknown): asserts header is LogicalHeader {
  if (!isJsonObject(header)) throw new SessionFormatError('format v2 header must be an object');
  requireExactFields(header, LOGICAL_REQUIRED, OPTIONAL, 'format v2 header');
  if (header.version !== 2) throw new SessionFormatError('expected format v2 header');
  if (typeof header.id !== 'string') throw new SessionFormatError('format v2 header id must be a string');
  formatCount(header.createdAt, 'format v2 header createdAt');
  formatCount(header.delegationDepth, 'format v2 header delegationDepth');
  if (typeof header.isSeeded !== 'boolean') throw new SessionFormatError('format v2 header isSeeded must be boolean');
  if (header.cwd !== undefined && (typeof header.cwd !== 'string' || !isAbsolutePath(header.cwd)))
    throw new SessionFormatError('format v2 header cwd must be absolute');
  for (const key of ['parentSession', 'agentPreset'])
    if (header[key] !== undefined && typeof header[key] !== 'string')
      throw new SessionFormatError(`format v2 header ${key} must be a string`);
  if (header.origin !== undefined && header.origin !== 'subagent')
    throw new SessionFormatError('format v2 header origin must be "subagent"');
}

/** The physical header line's value to the logical header, in dsh's words on refusal. */
export function decodeV2Header(value: unknown): LogicalHeader {
  const label = 'released v2 physical header';
  if (!isLosslessJson(value)) throw new SessionFormatError(`${label} is not lossless JSON`);
  if (!isJsonObject(value)) throw new SessionFormatError(`${label} must be an object`);
  // The physical check names a missing member without "required field" (unlike the logical one).
  for (const key of PHYSICAL_REQUIRED) if (!Object.hasOwn(value, key)) throw new SessionFormatError(`${label} lacks ${key}`);
  requireExactFields(value, PHYSICAL_REQUIRED, OPTIONAL, label);
  if (value.type !== 'session' || value.version !== 2) throw new SessionFormatError('expected released v2 physical Session header');
  if (typeof value.id !== 'string') throw new SessionFormatError('released v2 header id must be a string');
  const createdAt = formatCount(value.createdAt, 'released v2 header createdAt');
  const delegationDepth = formatCount(value.delegationDepth, 'released v2 header delegationDepth');
  if (typeof value.isSeeded !== 'boolean') throw new SessionFormatError('released v2 header isSeeded must be boolean');
  for (const key of ['cwd', 'parentSession', 'agentPreset'])
    if (value[key] !== undefined && typeof value[key] !== 'string')
      throw new SessionFormatError(`released v2 header ${key} must be a string`);
  if (value.origin !== undefined && value.origin !== 'subagent')
    throw new SessionFormatError('released v2 header origin must be "subagent"');
  const header = orderedHeader({ ...(value as unknown as LogicalHeader), version: 2, createdAt, delegationDepth });
  assertV2Header(header);
  return header;
}

/** The logical header to its physical line value, keys in the order dsh's encoder writes them. */
export function encodeV2Header(header: LogicalHeader, inheritedEventCount: number): Record<string, unknown> {
  assertV2Header(header);
  const cut = formatCount(inheritedEventCount, 'format v2 inherited event count');
  if (!header.isSeeded && cut !== 0) throw new SessionFormatError('unseeded format v2 Session has inherited events');
  return { type: 'session', ...orderedHeader(header) };
}

/** A logical header's members in dsh's order, optional ones only when present. */
export function orderedHeader(header: LogicalHeader): LogicalHeader {
  const ordered: Record<string, unknown> = { version: header.version, id: header.id, createdAt: header.createdAt };
  if (header.cwd !== undefined) ordered.cwd = header.cwd;
  if (header.parentSession !== undefined) ordered.parentSession = header.parentSession;
  ordered.isSeeded = header.isSeeded;
  if (header.origin !== undefined) ordered.origin = header.origin;
  ordered.delegationDepth = header.delegationDepth;
  if (header.agentPreset !== undefined) ordered.agentPreset = header.agentPreset;
  return ordered as unknown as LogicalHeader;
}

/** Node's POSIX rule, which dsh applies on the systems its logs come from. */
function isAbsolutePath(path: string): boolean {
  return path.startsWith('/');
}
