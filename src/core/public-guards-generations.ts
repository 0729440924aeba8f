// The entry points of the generations layer and the event vocabulary as src/core/index.ts exports them:
// called as a library they may be handed anything, so each reads its arguments guarded and answers
// what it cannot use with its result type's empty answer (no message, no name, a refused read, a
// refused plan). Inside the core the functions behind them are called with values the core made.
import type { Diagnostic } from './types';
import type { SessionLog } from './read/session-log';
import { isSessionLog } from './read/session-log';
import { asBytes, badInput, readField } from './api-guard';
import { answer, refusedPlan, unexpected } from './public-guards';
import { readGeneration as readAs, type ReadGenerationOptions } from './format/catalog';
import type { FormatRead } from './format/verdict';
import {
  currentGeneration as currentOf,
  generationFileName as fileNameOf,
  listGenerations as generationsOf,
  parseGenerationFileName as parseName,
  type GenerationEntry,
  type GenerationName,
} from './format/filename';
import {
  contentOf as contentOfMessage,
  derivedMessageOf as derivedOf,
  messageOf as messageOfEvent,
  toolCallIdsOf as callIdsOf,
  toolResultOf as resultOf,
  type ToolResultView,
} from './vocabulary/messages';
import { planCloseCompaction as closeOf } from './plan/close-compaction';
import type { PlanResult } from './plan/types';
import type { SessionEvent } from './types';

/** The most names a folder listing is read for (far beyond a session folder's few generations). */
const MAX_NAMES = 100_000;

/** Runs `run`; what it throws becomes the result type's empty answer. */
const quietly = <R>(run: () => R, empty: R): R => answer(run, () => empty);

export function messageOf(event: unknown): Record<string, unknown> | undefined {
  return quietly(() => messageOfEvent(event as { type: unknown; data?: unknown }), undefined);
}

export function contentOf(message: unknown): unknown[] | undefined {
  return quietly(() => contentOfMessage(message), undefined);
}

export function toolResultOf(event: unknown): ToolResultView | undefined {
  return quietly(() => resultOf(event as { type: unknown; data?: unknown }), undefined);
}

export function toolCallIdsOf(event: unknown): unknown[] {
  return quietly(() => callIdsOf(event as { type: unknown; data?: unknown }), []);
}

export function derivedMessageOf(event: unknown): Record<string, unknown> | null {
  return quietly(() => derivedOf(event as SessionEvent), null);
}

/** Names of a folder, as strings, read once and bounded by the entries read, not only those kept (anything else in the list is left out). */
function namesOf(names: unknown): string[] {
  const out: string[] = [];
  quietly(() => {
    let read = 0;
    for (const name of names as Iterable<unknown>) {
      if (typeof name === 'string') out.push(name);
      if (++read >= MAX_NAMES) break;
    }
  }, undefined);
  return out;
}

export function currentGeneration(names: unknown): { current: GenerationEntry; conflict?: GenerationEntry } | undefined {
  return currentOf(namesOf(names));
}

export function listGenerations(names: unknown): GenerationEntry[] {
  return generationsOf(namesOf(names));
}

export function parseGenerationFileName(basename: unknown): GenerationName | undefined {
  return typeof basename === 'string' ? parseName(basename) : undefined;
}

/** The canonical file name of generation `version`; undefined for what is not a generation number. */
export function generationFileName(version: unknown, compressed?: unknown): string | undefined {
  return quietly(() => fileNameOf(version as number, compressed === true), undefined);
}

/** The options a caller hands in, read once: only the fields the reader uses, each of its type. */
function readOptions(options: unknown): ReadGenerationOptions | Diagnostic {
  const targetVersion = readField(options, 'targetVersion');
  if (typeof targetVersion !== 'number' || !Number.isSafeInteger(targetVersion) || targetVersion < 0)
    return badInput('readGeneration needs { targetVersion } with a format version', options);
  const out: ReadGenerationOptions = { targetVersion };
  const recovery = readField(options, 'recovery');
  if (recovery === 'strict' || recovery === 'recoverable') out.recovery = recovery;
  const validation = readField(options, 'validation');
  if (validation === 'current' || validation === 'transformed') out.validation = validation;
  const fileNameVersion = readField(options, 'fileNameVersion');
  if (typeof fileNameVersion === 'number' && Number.isSafeInteger(fileNameVersion)) out.fileNameVersion = fileNameVersion;
  const encode = readField(options, 'encode');
  if (typeof encode === 'boolean') out.encode = encode;
  return out;
}

/** A file read as a target generation (see format/catalog.ts), or the refusal of what is not a file and a target. */
export function readGeneration(file: unknown, options: unknown): FormatRead {
  const read = readOptions(options);
  const bytes = asBytes(file);
  if ('severity' in read || !bytes) {
    const refusal = 'severity' in read ? read : badInput('readGeneration needs the file bytes (a Uint8Array)', file);
    return { verdict: { ok: false, stage: 'header', targetVersion: NaN, errorName: 'api.bad-input', reason: refusal.message } };
  }
  return quietly(() => readAs(bytes, read), {
    verdict: {
      ok: false,
      stage: 'header',
      targetVersion: read.targetVersion,
      errorName: 'api.unexpected',
      reason: 'the file could not be read',
    },
  });
}

export function planCloseCompaction(log: unknown, time?: unknown): PlanResult {
  if (!isSessionLog(log)) return refusedPlan('planCloseCompaction', log, 'a loaded session log');
  const at = typeof time === 'number' && Number.isSafeInteger(time) ? time : undefined;
  return answer(
    () => (at === undefined ? closeOf(log as SessionLog) : closeOf(log as SessionLog, at)),
    (error) => ({ ok: false, reasons: [unexpected('planCloseCompaction', error)] }),
  );
}
