// Drives every read-side API of a loaded log and checks the invariants that must hold for ANY
// input, valid or not. Used by the "reader never throws" tests: a throw anywhere in here fails them.
import { strict as assert } from 'node:assert';
import { inspectLog, type SessionLog } from '../../src/core';

const STAGES = ['header', 'parse', 'adopt', 'known-types', 'closers', 'seed', 'done'];

export function exerciseLog(log: SessionLog): void {
  const verdict = log.verdict;
  assert.ok(STAGES.includes(verdict.stage), `unknown stage ${verdict.stage}`);
  assert.equal(verdict.ok, verdict.stage === 'done', 'ok iff stage done');
  const diagnostics = log.diagnostics;
  if (!verdict.ok) {
    assert.ok(
      diagnostics.some((d) => d.refusing),
      'a refused log has one refusing diagnostic',
    );
    assert.equal(typeof verdict.dshError, 'string');
  }
  const scan = log.scan;
  assert.ok(scan.committedBytes <= scan.fileBytes, 'committed bytes within the file');
  assert.equal(scan.stoppedAt !== undefined, scan.committedBytes < scan.fileBytes, 'stoppedAt iff the prefix ended early');

  void log.header;
  void log.upgradedSeqs;
  void log.strictSeed;
  void log.lastTurnOpen;
  const closers = log.closers;
  const count = log.eventCount;
  assert.ok(log.sessionEventCount >= count, 'the session holds at least the kept events');

  const surface = log.surface();
  const repaired = log.repairedSurface();
  assert.equal(new Set(surface).size, surface.length, 'surface nodes are distinct');
  for (const seq of surface) {
    assert.ok(seq >= 0 && seq < count, `surface node ${seq} is a kept event`);
    assert.ok(log.event(seq), `surface node ${seq} can be read`);
  }
  for (const seq of repaired) assert.ok(seq >= 0 && seq < count + closers.length, `repaired node ${seq} exists`);
  void log.replacements();
  void log.replaceGeneration();
  void log.repairedReplacements();
  log.deriveMessages(surface);
  log.deriveMessages(repaired);
  for (const nodes of [surface, repaired]) {
    const cuts = log.balancedCuts(nodes);
    if ('cuts' in cuts) assert.equal(cuts.cuts[0], 0, 'cut 0 is always balanced');
    else assert.equal(typeof cuts.error, 'string');
  }
  log.transcript();
  for (let seq = 0; seq < count + closers.length; seq++) {
    log.event(seq);
    log.eventType(seq);
    log.place(seq);
  }
  // The conformance projection must be plain JSON.
  JSON.parse(JSON.stringify(inspectLog(log)));
  // Planning an append never throws either, whatever the log holds.
  log.planAppend([{ type: 'feedback/record', seq: count, time: 0, data: { text: 'x' } }]);
}
