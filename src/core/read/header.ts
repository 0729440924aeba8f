// The header line: dsh's JSONL header guard, the retired-field refusal, the version refusal,
// and the header validation the session constructor runs later (stage `seed`).
import type { SessionHeader } from '../types';
import { asRecord, hasOwn } from './json-values';
import { stringText } from '../value-text';

export const FORMAT_VERSION = 0;

export interface HeaderProblem {
  message: string;
  rule: string;
  unsupported?: boolean;
}

export interface HeaderRead {
  /** The header as dsh builds it; present when the line passed the header guard. */
  header?: SessionHeader;
  /** The parsed line, kept for the view even when the guard refused it. */
  raw?: unknown;
  problem?: HeaderProblem;
}

function isNonNegativeSafe(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0);
}

/** The JSONL reader's guard: what makes a first line a session header at all. */
function isHeaderLine(value: unknown): boolean {
  const line = asRecord(value);
  if (!line) return false;
  return (
    line.type === 'session' &&
    typeof line.version === 'number' &&
    typeof line.id === 'string' &&
    isNonNegativeSafe(line.createdAt) &&
    isNonNegativeSafe(line.delegationDepth) &&
    (line.origin === undefined || line.origin === 'subagent') &&
    (line.agentPreset === undefined || typeof line.agentPreset === 'string')
  );
}

/** Builds the header the way the reader does: known keys in writer order, unknown keys dropped. */
function headerFromLine(line: Record<string, unknown>): SessionHeader {
  const header: Record<string, unknown> = { version: line.version, id: line.id, createdAt: line.createdAt };
  for (const key of ['cwd', 'parentSession', 'seedLength', 'origin'] as const) {
    if (line[key] !== undefined) header[key] = line[key];
  }
  header.delegationDepth = line.delegationDepth;
  if (line.agentPreset !== undefined) header.agentPreset = line.agentPreset;
  return header as unknown as SessionHeader;
}

export function versionRefusal(id: string, version: number): string {
  return version > FORMAT_VERSION
    ? `session "${id}" uses log format v${version}, but this harness reads only v${FORMAT_VERSION}: the log was written by a newer harness — upgrade the harness to open it`
    : `session "${id}" uses log format v${version}, older than the supported v${FORMAT_VERSION}, and this build ships no upgrade path for it`;
}

/** Reads the header line text (without its newline). Never throws. */
export function readHeaderLine(text: string): HeaderRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: { message: 'corrupt session log: header line is not valid JSON', rule: 'header.line-shape' } };
  }
  if (!isHeaderLine(parsed)) {
    // A session line whose version is missing or not a number is a version problem, in dsh's words.
    const looksVersionless = asRecord(parsed)?.type === 'session' && typeof asRecord(parsed)?.version !== 'number';
    return {
      raw: parsed,
      problem: {
        message: 'corrupt session log: first line is not a session header',
        rule: looksVersionless ? 'header.version' : 'header.line-shape',
      },
    };
  }
  const line = parsed as Record<string, unknown>;
  if (hasOwn(line, 'sandboxMode') || hasOwn(line, 'approvalPolicy')) {
    return { raw: parsed, problem: { message: 'session header uses retired policy baseline fields', rule: 'header.line-shape' } };
  }
  const header = headerFromLine(line);
  if (header.version !== FORMAT_VERSION) {
    return {
      raw: parsed,
      header,
      problem: { message: versionRefusal(header.id, header.version), rule: 'header.version', unsupported: true },
    };
  }
  return { raw: parsed, header };
}

/** POSIX absolute path (the reference ran on Linux, so `C:\…` is not absolute). */
function isAbsolutePosix(path: string): boolean {
  return path.startsWith('/');
}

/** The constructor's header validation; returns dsh's message for the first failure. */
export function validateHeader(header: SessionHeader): string | undefined {
  const record = header as unknown as Record<string, unknown>;
  if (record.version !== FORMAT_VERSION) return `session header version must be ${FORMAT_VERSION}, got ${stringText(record.version)}`;
  if (typeof record.createdAt !== 'number' || !Number.isSafeInteger(record.createdAt) || record.createdAt < 0) {
    return 'session header createdAt must be a non-negative safe integer';
  }
  if (record.cwd !== undefined) {
    if (typeof record.cwd !== 'string') return 'session header cwd must be a string';
    if (!isAbsolutePosix(record.cwd)) return `session header cwd must be an absolute path, got "${record.cwd}"`;
  }
  if (record.parentSession !== undefined && typeof record.parentSession !== 'string')
    return 'session header parentSession must be a string';
  if (
    record.seedLength !== undefined &&
    !(typeof record.seedLength === 'number' && Number.isSafeInteger(record.seedLength) && record.seedLength >= 0)
  ) {
    return 'session header seedLength must be a non-negative safe integer';
  }
  if (record.origin !== undefined && record.origin !== 'subagent') return 'session header origin must be "subagent"';
  if (
    record.delegationDepth !== undefined &&
    !(typeof record.delegationDepth === 'number' && Number.isSafeInteger(record.delegationDepth) && record.delegationDepth >= 0)
  ) {
    return 'session header delegationDepth must be a non-negative safe integer';
  }
  if (record.agentPreset !== undefined && typeof record.agentPreset !== 'string') return 'session header agentPreset must be a string';
  return undefined;
}
