// A header alone, read as dsh's catalog reads it before any row: what listing sessions needs, and the
// first step of every read.
import { MigrationChain } from './chain';
import { SessionFormatUnsupportedMigrationError } from './errors';
import { FORMAT_GENERATIONS, findGeneration } from './generations';
import { inspectFormatVersion, snapshotFormatHeader } from './json';
import type { FormatGeneration, LogicalHeader } from './types';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The chain of a build's registered migrations. */
export function chainOf(generations: readonly FormatGeneration[]): MigrationChain {
  return new MigrationChain(generations.flatMap((generation) => (generation.migrationFrom ? [generation.migrationFrom] : [])));
}

/** What dsh's `readHeader` says of a header value: its status, and the target header or the reason. */
export interface FormatHeaderReading {
  status: 'current' | 'migration-required' | 'unsupported' | 'malformed';
  storedVersion?: number;
  targetVersion: number;
  /** The header carried to the target generation. */
  header?: LogicalHeader;
  /** dsh's message for an unsupported or malformed header. */
  reason?: string;
  error?: unknown;
}

/**
 * The header alone, read as dsh's catalog reads it before any row (what listing sessions needs):
 * `unsupported` for a version newer than the target or a header the migrations refuse, `malformed`
 * for anything else wrong, else the header carried to the target generation.
 */
export function readFormatHeader(
  headerValue: unknown,
  targetVersion: number,
  generations: readonly FormatGeneration[] = FORMAT_GENERATIONS,
  chain = chainOf(generations),
): FormatHeaderReading {
  let stored: number;
  try {
    stored = inspectFormatVersion(headerValue);
  } catch (error) {
    return { status: 'malformed', targetVersion, reason: errorText(error), error };
  }
  const refused = (status: 'unsupported' | 'malformed', error: unknown): FormatHeaderReading => ({
    status,
    storedVersion: stored,
    targetVersion,
    reason: errorText(error),
    error,
  });
  if (stored > targetVersion)
    return refused('unsupported', new Error(`stored Session uses newer format v${stored}; this build writes v${targetVersion}`));
  const source = findGeneration(stored, generations);
  if (!source) return refused('unsupported', new Error(`this build has no Session format codec for v${stored}`));
  try {
    const decoded = snapshotFormatHeader(source.codec.decodeHeader(headerValue), `format v${stored} header`);
    const header = chain.migrateHeader(decoded, targetVersion);
    return { status: stored === targetVersion ? 'current' : 'migration-required', storedVersion: stored, targetVersion, header };
  } catch (error) {
    return refused(error instanceof SessionFormatUnsupportedMigrationError ? 'unsupported' : 'malformed', error);
  }
}
