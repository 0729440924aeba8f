// The public API (src/core/index.ts) called as a library by someone who hands it anything: every
// argument of every entry point, and of the loaded log's, the provenance index's and the pending edits'
// methods, gets each hostile value (test/support/hostile-values.ts) and then seeded arbitrary values, the
// other arguments valid. Each call returns a result or a typed refusal — it never throws, never rejects,
// never hangs, and comes back within a bound that does not grow with what a value claims to hold.
// `FUZZ_SEED` varies the arbitrary values; `FUZZ_TRACE=1` names each call as it is made.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as core from '../../src/core';
import { encodeRawZstdFrame, concatBytes } from '../../src/core/zstd';
import { richLog } from '../support/build-log';
import { HOSTILE_VALUES } from '../support/hostile-values';

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
/** No call may take longer, whatever its arguments claim (a 10^7-element array is read in about 0.1 s). */
const CALL_BOUND_MS = 3000;

interface EntryPoint {
  name: string;
  /** Valid arguments (fresh per call); each position in turn is replaced by a hostile value. */
  args: () => unknown[];
  call: (...args: unknown[]) => unknown;
}

const bytes = richLog({ openTail: 'recorded-call' }).bytes();
const text = new TextDecoder().decode(bytes);
const zstdBytes = concatBytes(
  text
    .trimEnd()
    .split('\n')
    .map((line) => encodeRawZstdFrame(new TextEncoder().encode(`${line}\n`))),
);
const log = () => core.loadSession(bytes);
const loaded = () => core.loadSessionFile(bytes);
const loadedZstd = () => core.loadSessionFile(zstdBytes);
const pruneRequest = () => ({ seq: 23, text: 'gone', time: 0 });
const compactionRequest = () => ({ start: 1, end: 7, summaryText: 'summary', compactionId: 'c', messageId: 'm', time: 0 });

const f = (fn: unknown) => fn as (...args: unknown[]) => unknown;
/** A method of a fresh object: each argument is fuzzed, the object is not. */
const method =
  (make: () => object, name: string) =>
  (...args: unknown[]) =>
    (make() as Record<string, (...a: unknown[]) => unknown>)[name](...args);

const ENTRY_POINTS: EntryPoint[] = [
  { name: 'loadSession', args: () => [bytes, {}], call: f(core.loadSession) },
  { name: 'new SessionLog', args: () => [bytes, {}], call: (b, o) => new core.SessionLog(b as Uint8Array, o as never) },
  { name: 'loadSessionFile', args: () => [zstdBytes, {}], call: f(core.loadSessionFile) },
  { name: 'loadSessionFileAsync', args: () => [zstdBytes, {}], call: f(core.loadSessionFileAsync) },
  { name: 'extendLoadedFile', args: () => [loadedZstd(), zstdBytes.subarray(0, 10)], call: f(core.extendLoadedFile) },
  { name: 'inspectLog', args: () => [log()], call: f(core.inspectLog) },
  { name: 'isSessionLog', args: () => [log()], call: f(core.isSessionLog) },
  { name: 'sha256Hex', args: () => ['text'], call: f(core.sha256Hex) },
  { name: 'valueText', args: () => [{ a: 1 }, 40], call: f(core.valueText) },
  { name: 'stringText', args: () => [{ a: 1 }, 40], call: f(core.stringText) },
  { name: 'jsonText', args: () => [{ a: 1 }], call: f(core.jsonText) },
  { name: 'say', args: () => ['{0} and {1}', 'a', 2], call: f(core.say) },
  { name: 'serializeEvent', args: () => [log().event(1)], call: f(core.serializeEvent) },
  { name: 'serializeCloser', args: () => [log().closers[0]], call: f(core.serializeCloser) },
  { name: 'serializeHeader', args: () => [log().header], call: f(core.serializeHeader) },
  { name: 'provenanceIndex', args: () => [log()], call: f(core.provenanceIndex) },
  { name: 'checkInvariants', args: () => [log()], call: f(core.checkInvariants) },
  { name: 'planCompaction', args: () => [log(), { start: 1, end: 7, summary: 'x' }], call: f(core.planCompaction) },
  { name: 'planToolResultPrune', args: () => [log(), 23, [{ type: 'text', text: 'x' }], {}], call: f(core.planToolResultPrune) },
  { name: 'planRepair', args: () => [loaded()], call: f(core.planRepair) },
  { name: 'appendBytes', args: () => [['{}']], call: f(core.appendBytes) },
  { name: 'openCompactionStart', args: () => [log()], call: f(core.openCompactionStart) },
  { name: 'rebaseEdit', args: () => [{ kind: 'prune', seq: 23, content: [] }, 40, 1], call: f(core.rebaseEdit) },
  { name: 'compactionEdit', args: () => [log(), compactionRequest()], call: f(core.compactionEdit) },
  { name: 'pruneEdit', args: () => [log(), pruneRequest()], call: f(core.pruneEdit) },
  { name: 'defaultPrunedContent', args: () => [log(), 23], call: f(core.defaultPrunedContent) },
  { name: 'summaryBlocks', args: () => ['summary'], call: f(core.summaryBlocks) },
  { name: 'estimateTokensOfSeqs', args: () => [log(), [1, 2, 3]], call: f(core.estimateTokensOfSeqs) },
  { name: 'estimateTokensOfText', args: () => ['text'], call: f(core.estimateTokensOfText) },
  { name: 'formatSize', args: () => [12345], call: f(core.formatSize) },
  { name: 'reviewOpenTurn', args: () => [log()], call: f(core.reviewOpenTurn) },
  { name: 'reviewTornTail', args: () => [log(), { fileBytes: bytes }], call: f(core.reviewTornTail) },
  { name: 'printable', args: () => ['text'], call: f(core.printable) },
  { name: 'findRepairsMade', args: () => [log()], call: f(core.findRepairsMade) },
  { name: 'repairSeqs', args: () => [core.findRepairsMade(log())], call: f(core.repairSeqs) },
  { name: 'openTurnActivity', args: () => [1000, 60_000], call: f(core.openTurnActivity) },
  { name: 'sessionHealth', args: () => [log(), { fileBytes: bytes }, {}], call: f(core.sessionHealth) },
  { name: 'planCrashRepairWrite', args: () => [log(), undefined, {}], call: f(core.planCrashRepairWrite) },
  {
    name: 'bytesAfterWrite',
    args: () => [bytes, core.planCrashRepairWrite(log(), undefined)],
    call: f(core.bytesAfterWrite),
  },
  { name: 'planTornTailRemoval', args: () => [log(), bytes, undefined, {}], call: f(core.planTornTailRemoval) },
  {
    name: 'bytesAfterRemoval',
    args: () => [bytes, { ok: true, cutAt: 10, reappend: new Uint8Array(0), removedBytes: 1, rewrittenTextBytes: 0 }],
    call: f(core.bytesAfterRemoval),
  },
  { name: 'new PendingEdits', args: () => [40], call: (n) => new core.PendingEdits(n as number) },
  // The generations layer and the event vocabulary.
  { name: 'readGeneration', args: () => [bytes, { targetVersion: 4 }], call: f(core.readGeneration) },
  { name: 'currentGeneration', args: () => [['session.jsonl', 'session.v4.jsonl.zstd']], call: f(core.currentGeneration) },
  { name: 'listGenerations', args: () => [['session.jsonl', 'session.v3.jsonl']], call: f(core.listGenerations) },
  { name: 'parseGenerationFileName', args: () => ['session.v4.jsonl.zstd'], call: f(core.parseGenerationFileName) },
  { name: 'generationFileName', args: () => [4, true], call: f(core.generationFileName) },
  { name: 'generationRelease', args: () => [4], call: f(core.generationRelease) },
  { name: 'messageOf', args: () => [log().event(1)], call: f(core.messageOf) },
  { name: 'contentOf', args: () => [core.messageOf(log().event(1))], call: f(core.contentOf) },
  { name: 'toolResultOf', args: () => [log().event(23)], call: f(core.toolResultOf) },
  { name: 'toolCallIdsOf', args: () => [log().event(7)], call: f(core.toolCallIdsOf) },
  { name: 'derivedMessageOf', args: () => [log().event(1)], call: f(core.derivedMessageOf) },
  { name: 'planCloseCompaction', args: () => [log(), 0], call: f(core.planCloseCompaction) },
  { name: 'PendingEdits.fromJSON', args: () => [new core.PendingEdits(40).toJSON()], call: (v) => core.PendingEdits.fromJSON(v) },
  // The loaded log's methods (the first argument is the log: null there means a fresh valid one).
  ...(
    [
      ['event', [1]],
      ['eventType', [1]],
      ['place', [1]],
      ['lineText', [1]],
      ['turn', [1]],
      ['step', [1]],
      ['surfaceRole', [1]],
      ['deriveMessages', [[1, 7]]],
      ['balancedCuts', [[1, 7]]],
      ['planAppend', [[{ type: 'session/title', seq: 49, time: 0, data: { title: 't', messageSeqs: [], source: { kind: 'fallback' } } }]]],
      ['append', [[{ type: 'session/title', seq: 49, time: 0, data: { title: 't', messageSeqs: [], source: { kind: 'fallback' } } }]]],
      ['extend', [new TextEncoder().encode('{"type":"session/title"')]],
      ['upgradeRead', [{ digest: false }]],
      ['formRead', [3]],
      ['protectedHead', []],
    ] as const
  ).map(([name, args]) => ({
    name: `SessionLog.${name}`,
    args: () => args.map((a) => structuredClone(a)),
    call: method(log, name),
  })),
  // The provenance index's questions.
  ...[
    'sourcesOf',
    'derivativesOf',
    'messageOfChunk',
    'chunksOfMessage',
    'requestOfCall',
    'callOfResult',
    'shadowedBy',
    'attemptOfChunk',
  ].map((name) => ({ name: `ProvenanceIndex.${name}`, args: () => [7], call: method(() => core.provenanceIndex(log()), name) })),
  // Pending edits' methods.
  ...(
    [
      ['push', [{ kind: 'prune', seq: 23, content: [{ type: 'text', text: 'x' }] }]],
      ['rebase', [41]],
      ['clearSaved', [41]],
    ] as const
  ).map(([name, args]) => ({
    name: `PendingEdits.${name}`,
    args: () => args.map((a) => structuredClone(a)),
    call: method(() => new core.PendingEdits(49), name),
  })),
  {
    name: 'PendingEdits.plan',
    args: () => [{ log: log() }],
    call: method(() => {
      const edits = new core.PendingEdits(49);
      edits.push({ kind: 'prune', seq: 23, content: [{ type: 'text', text: 'x' }] } as never);
      return edits;
    }, 'plan'),
  },
];

/** Calls an entry point once; a failure is a message, success undefined. */
async function attempt(entry: EntryPoint, args: unknown[]): Promise<string | undefined> {
  const started = Date.now();
  try {
    const result = entry.call(...args);
    // A result may be the caller's own hostile value handed back: asking whether it is a promise must not throw here.
    let promise = false;
    try {
      promise = result instanceof Promise;
    } catch {
      promise = false;
    }
    if (promise) await result;
  } catch (error) {
    return `threw ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : typeof error}`;
  }
  const ms = Date.now() - started;
  return ms > CALL_BOUND_MS ? `took ${ms} ms` : undefined;
}

describe('fuzz: the public API with hostile arguments', function () {
  this.timeout(600_000);

  it(`has an entry in this table for every function the core exports`, () => {
    const functions = Object.entries(core)
      .filter(([, v]) => typeof v === 'function')
      .map(([k]) => k)
      .sort();
    const covered = new Set(ENTRY_POINTS.map((e) => e.name.replace(/^new /, '').replace(/\..*$/, '')));
    assert.deepEqual(
      functions.filter((name) => !covered.has(name)),
      [],
    );
  });

  it(`every argument of ${ENTRY_POINTS.length} entry points, given each of ${HOSTILE_VALUES.length} hostile values, gets a result or a typed refusal`, async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const entry of ENTRY_POINTS) {
      const arity = entry.args().length;
      for (let position = 0; position < arity; position++) {
        for (const [valueName, make] of HOSTILE_VALUES) {
          const args = entry.args();
          args[position] = make();
          calls += 1;
          // FUZZ_TRACE=1 names each call before it is made: a call that kills the process (out of memory) is the last one named.
          if (process.env.FUZZ_TRACE) process.stderr.write(`${entry.name} argument ${position + 1} = ${valueName}\n`);
          const failure = await attempt(entry, args);
          if (failure) failures.push(`${entry.name} argument ${position + 1} = ${valueName}: ${failure}`);
        }
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${calls} calls failed`);
  });

  it(`every argument given seeded arbitrary values (seed ${SEED}) gets a result or a typed refusal`, async () => {
    const failures: string[] = [];
    const values = fc.sample(
      fc.anything({
        withBigInt: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withTypedArray: true,
        withSparseArray: true,
        withNullPrototype: true,
        withObjectString: true,
        withBoxedValues: true,
        maxDepth: 5,
      }),
      { seed: SEED, numRuns: 40 },
    );
    for (const entry of ENTRY_POINTS) {
      const arity = entry.args().length;
      for (let position = 0; position < arity; position++) {
        for (const value of values) {
          const args = entry.args();
          args[position] = value;
          const failure = await attempt(entry, args);
          if (failure) failures.push(`${entry.name} argument ${position + 1} = ${core.valueText(value, 60)}: ${failure}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });
});
