// Compares the generations layer's verdicts with ../shared/conformance-v3 (verdicts of dsh's own
// session-format code): for every case, each target form whose generation this build registers, the
// strict read, and the top-level verdict once its target is registered. Registering a generation is
// all it takes for its forms to be compared.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGeneration, readGeneration, type FormatRead, type FormatVerdict } from '../../src/core/format';

export const CONFORMANCE_V3_DIRS = ['v1', 'v2', 'v3', 'v3-mutations', 'v0-to-v3'];

/** One case: its expected verdict file and the log it describes. */
export interface V3Case {
  dir: string;
  name: string;
  logPath: string;
  expected: Record<string, any>;
}

export function listV3Cases(root: string): V3Case[] {
  const cases: V3Case[] = [];
  for (const dir of CONFORMANCE_V3_DIRS) {
    const path = join(root, dir);
    if (!existsSync(path)) continue;
    for (const name of readdirSync(path).sort()) {
      if (!name.endsWith('.expected.json')) continue;
      const expected = JSON.parse(readFileSync(join(path, name), 'utf8'));
      cases.push({ dir, name: name.replace(/\.expected\.json$/, ''), logPath: join(path, expected.file), expected });
    }
  }
  return cases;
}

/** What one comparison found: the thing compared (`forms.v1`, `strict`, `top`) and its mismatches. */
export interface Comparison {
  what: string;
  mismatches: string[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function compareVerdict(actual: FormatVerdict, expected: Record<string, any>, fields: readonly string[]): string[] {
  const out: string[] = [];
  const got: Record<string, unknown> = {
    ok: actual.ok,
    stage: actual.stage,
    edge: actual.edge,
    errorName: actual.errorName,
    error: actual.dshError,
    line: actual.line,
    throwLine: actual.throwLine,
    headerVersion: actual.headerVersion,
    events: actual.events,
    inheritedEventCount: actual.inheritedEventCount,
    isSeeded: actual.isSeeded,
    sha256: actual.sha256,
    bytes: actual.bytes,
    types: actual.types,
  };
  for (const field of fields) {
    // A field the corpus leaves out must be absent here too (an extra `line` is a disagreement).
    const want = expected[field];
    const have = got[field];
    if (!same(have, want)) out.push(`${field}: expected ${JSON.stringify(want)?.slice(0, 300)} got ${JSON.stringify(have)?.slice(0, 300)}`);
  }
  return out;
}

const FORM_FIELDS = ['ok', 'stage', 'edge', 'errorName', 'error', 'line', 'throwLine', 'events', 'inheritedEventCount', 'sha256', 'bytes'];
// The top-level verdict gives the target form's sha256 but not its byte count.
const TOP_FIELDS = [...FORM_FIELDS.filter((field) => field !== 'bytes'), 'headerVersion', 'isSeeded', 'types'];
// The strict read is given as {ok, events} when it succeeds and {ok, stage, errorName, error} when it fails.
const STRICT_OK_FIELDS = ['ok', 'events'];
const STRICT_REFUSED_FIELDS = ['ok', 'stage', 'errorName', 'error', 'events'];
/** Strict stages decided before any migration beyond the stored generation's own codec. */
const PHYSICAL_STAGES = new Set(['header', 'jsonl', 'decode', 'bytes']);

/** Every comparison this build can make for one case. */
export function compareV3Case(testCase: V3Case): Comparison[] {
  const bytes = new Uint8Array(readFileSync(testCase.logPath));
  const expected = testCase.expected;
  const reads = new Map<string, FormatRead>();
  const read = (targetVersion: number, recovery: 'recoverable' | 'strict'): FormatRead => {
    const key = `${targetVersion}:${recovery}`;
    if (!reads.has(key)) reads.set(key, readGeneration(bytes, { targetVersion, recovery }));
    return reads.get(key)!;
  };
  const out: Comparison[] = [];
  for (const [form, verdict] of Object.entries<Record<string, any>>(expected.forms ?? {})) {
    const version = Number(form.slice(1));
    if (!findGeneration(version)) continue;
    const want = { ...verdict, headerVersion: verdict.headerVersion ?? verdict.storedVersion };
    out.push({ what: `forms.${form}`, mismatches: compareVerdict(read(version, 'recoverable').verdict, want, FORM_FIELDS) });
  }
  const top = expected.migratedTo ?? 3;
  if (findGeneration(top)) out.push({ what: 'top', mismatches: compareVerdict(read(top, 'recoverable').verdict, expected, TOP_FIELDS) });
  const strict = strictTarget(expected, top);
  if (strict !== undefined && expected.strict)
    out.push({
      what: `strict@v${strict}`,
      mismatches: compareVerdict(
        read(strict, 'strict').verdict,
        expected.strict,
        expected.strict.ok ? STRICT_OK_FIELDS : STRICT_REFUSED_FIELDS,
      ),
    });
  return out;
}

/**
 * The target the strict read can be compared at: the top-level one once registered; before that, a
 * lower registered form, when the strict refusal is physical (decided by the stored generation's
 * codec and framing alone) and that form itself reached it or passed.
 */
function strictTarget(expected: Record<string, any>, top: number): number | undefined {
  if (findGeneration(top)) return top;
  const stage = expected.strict?.stage;
  if (expected.strict?.ok !== false || !PHYSICAL_STAGES.has(stage)) return undefined;
  for (const [form, verdict] of Object.entries<Record<string, any>>(expected.forms ?? {})) {
    const version = Number(form.slice(1));
    if (!findGeneration(version) || (expected.headerVersion ?? Infinity) > version) continue;
    if (verdict.ok || verdict.stage === stage) return version;
  }
  return undefined;
}
