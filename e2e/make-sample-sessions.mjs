// Writes the project's own small sample session logs into test/fixtures/sessions/. They are committed;
// run this again only to change them (`node e2e/make-sample-sessions.mjs`). Each sample shows one thing
// the session editor must handle; test/fixtures/sessions/README.md lists them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { headerLine, SessionLogBuilder } from './session-log-generator.mjs';
import { scaleV4LogText } from '../test/support/log-generator-v4.mjs';

/** Replaces one event line: `edit` gets the parsed event and changes it in place. */
function editLine(lines, predicate, edit) {
  const index = lines.findIndex(predicate);
  if (index < 0) throw new Error('no line to edit');
  const event = JSON.parse(lines[index]);
  edit(event);
  lines[index] = JSON.stringify(event);
  return index + 1; // 1-based file line
}

export function sampleSessions() {
  const samples = {};

  const small = new SessionLogBuilder();
  samples['session-small.jsonl'] = [
    headerLine({ id: 'sample-small-0001' }),
    ...small.turnLines(),
    ...small.turnLines(),
    ...small.turnLines(),
  ];

  const live = new SessionLogBuilder();
  samples['session-live.jsonl'] = [headerLine({ id: 'sample-live-0001' }), ...live.turnLines(), ...live.turnLines({ open: true })];

  // Two different errors on known lines: a log-only event that carries a surface marker, and a tool
  // result whose source names another call than its tool-result block.
  const broken = new SessionLogBuilder();
  const brokenLines = [headerLine({ id: 'sample-errors-0001' }), ...broken.turnLines(), ...broken.turnLines()];
  const surfaceLine = editLine(
    brokenLines,
    (l) => l.includes('"type":"tool/call"'),
    (e) => {
      e.surfaceOp = 'append';
    },
  );
  const idsLine = editLine(
    brokenLines,
    (l, i) => i > surfaceLine && l.includes('"type":"tool/result"'),
    (e) => {
      e.data.message.source.callId = 'call-that-was-never-made';
    },
  );
  samples['session-with-errors.jsonl'] = brokenLines;

  // A header from an older writer: no delegationDepth, which dsh's current reader refuses.
  const legacy = new SessionLogBuilder();
  samples['session-legacy-header.jsonl'] = [
    JSON.stringify({ type: 'session', version: 0, id: 'sample-legacy-0001', createdAt: 1786348800000, cwd: '/home/dev/project' }),
    ...legacy.turnLines(),
  ];

  // What dsh 0.1.7 and 0.2.x write (format v4): a forked child with the protected system head and its
  // replacements, developer messages, an attempt, tool-role results, prunes and a compaction.
  const [v4Header, ...v4Events] = scaleV4LogText({
    params: { targetEvents: 260, compactEvery: 6, keepTurns: 2, pruneEvery: 3 },
    seed: 7,
    name: 'sample',
  })
    .text.trimEnd()
    .split('\n');
  samples['session-v4-fork.jsonl'] = [
    JSON.stringify({ ...JSON.parse(v4Header), id: 'sample-v4-fork-0001', parentSession: 'sample-v4-parent-0001' }),
    ...v4Events,
  ];

  return { samples, errorLines: { surfaceLine, idsLine } };
}

if (process.argv[1]?.endsWith('make-sample-sessions.mjs')) {
  const SAMPLES_DIR = join(dirname(dirname(process.argv[1])), 'test', 'fixtures', 'sessions');
  mkdirSync(SAMPLES_DIR, { recursive: true });
  const { samples, errorLines } = sampleSessions();
  for (const [name, lines] of Object.entries(samples)) writeFileSync(join(SAMPLES_DIR, name), lines.join('\n') + '\n');
  console.log(`wrote ${Object.keys(samples).length} samples to ${SAMPLES_DIR}; error lines ${JSON.stringify(errorLines)}`);
}
