// Compares the core's projection of a conformance case with the reference verdict, field by field,
// as issue 2 specifies. Returns the list of mismatches (empty = agrees).
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inspectLog, loadSession, type SessionLog } from '../../src/core';
import { bufferUtf8Slicer } from '../../src/node/buffer-utf8';

export interface CaseResult {
  name: string;
  mismatches: string[];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function compareCase(jsonlPath: string): CaseResult {
  const name = jsonlPath.replace(/^.*\//, '').replace(/\.jsonl$/, '');
  const expected = JSON.parse(readFileSync(jsonlPath.replace(/\.jsonl$/, '.expected.json'), 'utf8'));
  const bytes = new Uint8Array(readFileSync(jsonlPath));
  // Every case is a dsh 0.1.x `session.jsonl` (the file its verdict was given for): it is read as one,
  // so a header naming another version is that dsh's refusal, not a later generation's read.
  const fileName = join(dirname(jsonlPath), 'session.jsonl');
  const log = loadSession(bytes, { fileName });
  // The CLI and the host decode lines with Node's Buffer: every case must read the same through it.
  const throughBuffer = loadSession(bytes, { fileName, utf8Slicer: bufferUtf8Slicer() });
  const mismatches = [
    ...compareWithExpected(log, expected),
    ...compareWithExpected(throughBuffer, expected).map((m) => `(lines decoded by Buffer) ${m}`),
  ];
  return { name, mismatches };
}

/** The field-by-field comparison of a loaded log with a case's expected.json (issue 2's list). */
export function compareWithExpected(log: SessionLog, expected: Record<string, any>): string[] {
  const actual = inspectLog(log) as Record<string, any>;
  const mismatches: string[] = [];
  const check = (field: string, a: unknown, e: unknown) => {
    if (!same(a, e)) mismatches.push(`${field}: expected ${JSON.stringify(e)?.slice(0, 300)} got ${JSON.stringify(a)?.slice(0, 300)}`);
  };
  check('ok', actual.ok, expected.ok);
  check('stage', actual.stage, expected.stage);
  if (expected.errorName === 'SessionFormatUnsupportedError' || actual.errorName === 'SessionFormatUnsupportedError')
    check('errorName', actual.errorName, expected.errorName);
  for (const field of [
    'header',
    'events',
    'upgradedSeqs',
    'sessionEvents',
    'surface',
    'replaceGeneration',
    'derivedMessages',
    'replacements',
  ]) {
    if (field in expected) check(field, actual[field], expected[field]);
  }
  if (expected.scan) {
    const { stoppedAt, ...rest } = expected.scan;
    const { stoppedAt: actualStopped, ...actualRest } = actual.scan ?? {};
    check('scan', actualRest, rest);
    check(
      'scan.stoppedAt',
      actualStopped === undefined ? undefined : actualStopped === 'torn-tail',
      stoppedAt === undefined ? undefined : stoppedAt === 'torn-tail',
    );
  }
  if ('balancedCuts' in expected || 'balancedCutsError' in expected) {
    check('balancedCuts', actual.balancedCuts, expected.balancedCuts);
    check('balancedCutsError present', 'balancedCutsError' in actual, 'balancedCutsError' in expected);
  }
  if (expected.strictSeed) check('strictSeed.ok', actual.strictSeed?.ok, expected.strictSeed.ok);
  // Closers whole, with dsh's own texts (format data the model reads), and the digest of the messages they give.
  if (expected.closers) check('closers', actual.closers, expected.closers);
  if (expected.ok) {
    check('derivedDigest', actual.derivedDigest, expected.derivedDigest);
    if ((expected.closers ?? []).length > 0) check('unrepaired', actual.unrepaired, expected.unrepaired);
  }
  return mismatches;
}

export function derivedPath(jsonlPath: string): string | undefined {
  const path = jsonlPath.replace(/\.jsonl$/, '.derived.json');
  return existsSync(path) ? path : undefined;
}
