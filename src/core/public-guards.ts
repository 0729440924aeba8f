// The entry points src/core/index.ts exports for the functions that trust their arguments inside the
// core (their callers there pass a loaded log and bytes they made). Called as a library, they may be
// handed anything: each reads its arguments once and guarded — a log must be one this core made
// (`isSessionLog`, which no Proxy passes), bytes are read through the engine's own getters, structured
// inputs are checked and copied as plain JSON — and answers what it cannot use with its result type's
// refusal (a refused plan, no review, no bytes). What no check anticipated is caught and refused too,
// so an entry point returns a result or a typed refusal: it never throws.
import type { Diagnostic } from './types';
import { SessionLog, isSessionLog } from './read/session-log';
import type { ZstdSummary } from './read/load-file';
import { asBytes, badInput, plainView, readField } from './api-guard';
import { checkedJsonCopy } from './json-copy';
import { writeJson } from './json-text';
import { sha256Hex as hashText } from './sha256';
import { asNativeZstd } from './zstd/backend';
import type { ZstdEncodeOptions } from './zstd/encode';
import { provenanceIndex as provenanceOf, type ProvenanceIndex } from './provenance/provenance';
import { checkInvariants as invariantsOf } from './check/invariants';
import { appendBytes as bytesOfLines } from './plan/types';
import { openCompactionStart as compactionStartOf } from './plan/checks';
import { reviewOpenTurn as reviewOf, type OpenTurnReview } from './surface/crash-review';
import { reviewTornTail as tornTailOf, printable as printableText, type LoadedBytes, type TornTail } from './surface/torn-tail';
import { findRepairsMade as repairsOf, repairSeqs as seqsOf, type RepairMade } from './surface/repairs-made';
import { openTurnActivity as activityOf, STILL_AFTER_MS, type OpenTurnActivity } from './surface/liveness';
import { sessionHealth as healthOf, type HealthOptions, type SessionHealth } from './check/session-health';
import {
  planCrashRepairWrite as writeOf,
  bytesAfterWrite as afterWrite,
  type CrashRepairWrite,
  type CrashRepairWritePlan,
} from './plan/crash-repair-write';
import {
  planTornTailRemoval as removalOf,
  bytesAfterRemoval as afterRemoval,
  type TornTailRemoval,
  type TornTailRemovalPlan,
} from './plan/torn-tail-removal';

/** Runs `run`; what it throws (a failure no check anticipated) becomes `fallback(error)`. */
export function answer<R>(run: () => R, fallback: (error: unknown) => R): R {
  try {
    return run();
  } catch (error) {
    return fallback(error);
  }
}

export function unexpected(name: string, error: unknown): Diagnostic {
  return {
    severity: 'error',
    rule: 'api.unexpected',
    message: `${name} could not use this input: ${error instanceof Error ? error.message : 'an unknown failure'}`,
  };
}

export function refusedPlan(name: string, value: unknown, what: string): { ok: false; reasons: Diagnostic[] } {
  return { ok: false, reasons: [badInput(`${name} needs ${what}`, value)] };
}

/** A zstd summary a caller hands in: plain JSON of an object, else none. */
function zstdSummary(value: unknown): ZstdSummary | undefined {
  if (value === undefined) return undefined;
  const checked = checkedJsonCopy(value);
  return checked.ok && typeof checked.copy === 'object' && checked.copy !== null ? (checked.copy as ZstdSummary) : undefined;
}

/** The file as loaded, as a caller hands it in (`{ fileBytes, zstd?, text? }`), or undefined. */
function loadedBytes(value: unknown): LoadedBytes | undefined {
  const fileBytes = asBytes(readField(value, 'fileBytes'));
  if (!fileBytes) return undefined;
  const text = asBytes(readField(value, 'text'));
  const out: LoadedBytes = { fileBytes: plainView(fileBytes) };
  const zstd = zstdSummary(readField(value, 'zstd'));
  if (zstd) out.zstd = zstd;
  if (text) out.text = plainView(text);
  return out;
}

/** Encoder options a caller hands in: the known fields, each read once and checked. */
function encodeOptions(value: unknown): ZstdEncodeOptions {
  const out: ZstdEncodeOptions = {};
  const encoder = readField(value, 'encoder');
  if (encoder === 'auto' || encoder === 'raw') out.encoder = encoder;
  const codec = asNativeZstd(readField(value, 'codec'));
  if (codec) out.codec = codec;
  const level = readField(value, 'level');
  if (typeof level === 'number' && Number.isInteger(level) && level >= -7 && level <= 22) out.level = level;
  return out;
}

/**
 * `JSON.stringify(value)` for plain JSON without recursion (see value-text's jsonText), checked first:
 * undefined — as JSON.stringify gives for a function — for a value JSON cannot hold (a cycle, a BigInt, a
 * class instance, a hole, a throwing getter) or whose text would be longer than the engine's longest string.
 */
export function jsonText(value: unknown): string | undefined {
  const checked = checkedJsonCopy(value);
  if (!checked.ok) return undefined;
  const out: string[] = [];
  writeJson(checked.copy, (chunk) => out.push(chunk));
  return out.join('');
}

/** SHA-256 of text, as hex; an empty string (no digest) for what is not text. */
export function sha256Hex(text: string): string {
  return typeof text === 'string' ? hashText(text) : '';
}

let emptyIndex: ProvenanceIndex | undefined;

/** A loaded log's provenance index; for anything else an index with nothing in it. */
export function provenanceIndex(log: SessionLog): ProvenanceIndex {
  if (isSessionLog(log)) return provenanceOf(log);
  emptyIndex ??= provenanceOf(new SessionLog(new Uint8Array(0)));
  return emptyIndex;
}

/** A loaded log's relational-invariant warnings; for anything else the refusal. */
export function checkInvariants(log: SessionLog): Diagnostic[] {
  return isSessionLog(log) ? invariantsOf(log) : [badInput('checkInvariants needs a loaded session log', log)];
}

/** The bytes of lines to append (each with its newline); none for what is not a list of lines of text. */
export function appendBytes(lines: readonly string[]): Uint8Array {
  const checked = checkedJsonCopy(lines);
  if (!checked.ok || !Array.isArray(checked.copy) || !checked.copy.every((line) => typeof line === 'string')) return new Uint8Array(0);
  return bytesOfLines(checked.copy as string[]);
}

/** Seq of a compaction/start not yet ended; undefined when none is open or `log` is not a loaded log. */
export function openCompactionStart(log: SessionLog): number | undefined {
  return isSessionLog(log) ? compactionStartOf(log) : undefined;
}

/** The open final turn's review; undefined when the turn is closed or `log` is not a loaded log. */
export function reviewOpenTurn(log: SessionLog): OpenTurnReview | undefined {
  return isSessionLog(log)
    ? answer(
        () => reviewOf(log),
        () => undefined,
      )
    : undefined;
}

/** The tail of a loaded log; undefined when every byte belongs to the session or the input is not a loaded file. */
export function reviewTornTail(log: SessionLog, source: LoadedBytes): TornTail | undefined {
  const bytes = loadedBytes(source);
  if (!isSessionLog(log) || !bytes) return undefined;
  return answer(
    () => tornTailOf(log, bytes),
    () => undefined,
  );
}

/** Text made safe to show on one line (see torn-tail.ts); empty for what is not text. */
export function printable(text: string): string {
  return typeof text === 'string' ? printableText(text) : '';
}

/** Crash repairs a loaded log already holds; none for anything else. */
export function findRepairsMade(log: SessionLog): RepairMade[] {
  return isSessionLog(log) ? repairsOf(log) : [];
}

/** The seqs repairs wrote; none for what is not a list of repairs. */
export function repairSeqs(repairs: readonly RepairMade[]): Set<number> {
  const checked = checkedJsonCopy(repairs);
  if (!checked.ok || !Array.isArray(checked.copy)) return new Set();
  const list = (checked.copy as unknown[]).filter(
    (r): r is RepairMade => typeof r === 'object' && r !== null && Array.isArray((r as RepairMade).closerSeqs),
  );
  return seqsOf(list);
}

/** `growing` or `still` (see liveness.ts); a time that is not a number of milliseconds counts as still. */
export function openTurnActivity(msSinceLastChange: number, stillAfterMs = STILL_AFTER_MS): OpenTurnActivity {
  const still = typeof stillAfterMs === 'number' && !Number.isNaN(stillAfterMs) ? stillAfterMs : STILL_AFTER_MS;
  return activityOf(typeof msSinceLastChange === 'number' ? msSinceLastChange : Infinity, still);
}

/** A loaded log's health; for anything else a health with nothing in it. */
export function sessionHealth(log: SessionLog, source: LoadedBytes, options: HealthOptions = {}): SessionHealth {
  const empty: SessionHealth = { entries: [], repairs: [], omitted: {} };
  const bytes = loadedBytes(source);
  if (!isSessionLog(log) || !bytes) return empty;
  const max = readField(options, 'maxPerKind');
  const safe: HealthOptions = typeof max === 'number' && Number.isSafeInteger(max) && max >= 0 ? { maxPerKind: max } : {};
  return answer(
    () => healthOf(log, bytes, safe),
    () => empty,
  );
}

/** The bytes a crash repair appends (see crash-repair-write.ts), or the refusal. */
export function planCrashRepairWrite(
  log: SessionLog,
  zstd: ZstdSummary | undefined,
  options: ZstdEncodeOptions = {},
): CrashRepairWritePlan {
  if (!isSessionLog(log)) return refusedPlan('planCrashRepairWrite', log, 'a loaded session log');
  const summary = zstdSummary(zstd);
  if (zstd !== undefined && !summary) return refusedPlan('planCrashRepairWrite', zstd, "the zstd container's summary or undefined");
  return answer(
    () => writeOf(log, summary, encodeOptions(options)),
    (error) => ({ ok: false, reasons: [unexpected('planCrashRepairWrite', error)] }),
  );
}

/** The file a write plan leaves; no bytes when the arguments are not a file's bytes and an accepted plan. */
export function bytesAfterWrite(fileBytes: Uint8Array, plan: CrashRepairWrite): Uint8Array {
  const file = asBytes(fileBytes);
  const added = asBytes(readField(plan, 'bytes'));
  return file && added ? afterWrite(plainView(file), { bytes: plainView(added) } as CrashRepairWrite) : new Uint8Array(0);
}

/** The removal of a torn tail (see torn-tail-removal.ts), or the refusal. */
export function planTornTailRemoval(
  log: SessionLog,
  fileBytes: Uint8Array,
  zstd: ZstdSummary | undefined,
  options: ZstdEncodeOptions = {},
): TornTailRemovalPlan {
  if (!isSessionLog(log)) return refusedPlan('planTornTailRemoval', log, 'a loaded session log');
  const bytes = asBytes(fileBytes);
  if (!bytes) return refusedPlan('planTornTailRemoval', fileBytes, "the file's bytes (a Uint8Array)");
  const summary = zstdSummary(zstd);
  if (zstd !== undefined && !summary) return refusedPlan('planTornTailRemoval', zstd, "the zstd container's summary or undefined");
  return answer(
    () => removalOf(log, plainView(bytes), summary, encodeOptions(options)),
    (error) => ({ ok: false, reasons: [unexpected('planTornTailRemoval', error)] }),
  );
}

/** The file a removal leaves; no bytes when the arguments are not a file's bytes and an accepted plan. */
export function bytesAfterRemoval(fileBytes: Uint8Array, plan: TornTailRemoval): Uint8Array {
  const file = asBytes(fileBytes);
  const cutAt = readField(plan, 'cutAt');
  const reappend = asBytes(readField(plan, 'reappend'));
  if (!file || !reappend || typeof cutAt !== 'number' || !Number.isSafeInteger(cutAt) || cutAt < 0) return new Uint8Array(0);
  return afterRemoval(plainView(file), { cutAt, reappend: plainView(reappend) } as TornTailRemoval);
}
