// The v4 logical header (spec §3; v4 native: exactly version, id, createdAt, isSeeded, delegationDepth
// plus optional cwd, parentSession, origin, agentPreset, and nothing else).
import { SessionFormatError } from '../errors';
import { isJsonObject, formatCount } from '../json';
import { isAbsolutePath } from './absolute-path';

const REQUIRED = ['version', 'id', 'createdAt', 'isSeeded', 'delegationDepth'];
const ALLOWED: ReadonlySet<string> = new Set([...REQUIRED, 'cwd', 'parentSession', 'origin', 'agentPreset']);

/** Throws SessionFormatError, in dsh's words, unless `header` is an exact v4 logical header. */
export function assertV4Header(header: unknown): void {
  if (!isJsonObject(header) || header.version !== 4) throw new SessionFormatError('expected format v4 header');
  const missing = REQUIRED.find((key) => !Object.hasOwn(header, key));
  if (missing !== undefined) throw new SessionFormatError(`format v4 header lacks required field ${missing}`);
  const unexpected = Object.keys(header).find((key) => !ALLOWED.has(key));
  if (unexpected !== undefined) throw new SessionFormatError(`format v4 header has unexpected field ${unexpected}`);
  if (typeof header.id !== 'string') throw new SessionFormatError('format v4 header id must be a string');
  formatCount(header.createdAt, 'format v4 header createdAt');
  formatCount(header.delegationDepth, 'format v4 header delegationDepth');
  if (typeof header.isSeeded !== 'boolean') throw new SessionFormatError('format v4 header isSeeded must be boolean');
  if (header.cwd !== undefined && (typeof header.cwd !== 'string' || !isAbsolutePath(header.cwd))) {
    throw new SessionFormatError('format v4 header cwd must be absolute');
  }
  for (const key of ['parentSession', 'agentPreset']) {
    if (header[key] !== undefined && typeof header[key] !== 'string')
      throw new SessionFormatError(`format v4 header ${key} must be a string`);
  }
  if (header.origin !== undefined && header.origin !== 'subagent')
    throw new SessionFormatError('format v4 header origin must be "subagent"');
}
