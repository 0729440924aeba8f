// The timeline's sample logs, written on the project's log generator (its uniform turns, and its event
// writer and shapes for the rest). Deterministic: the same code gives the same bytes. The compaction
// sample is committed in test/fixtures/sessions/ (run `node e2e/timeline-samples.mjs` to change it; a unit
// test compares it with this script); the tests write the other two where they need them.
//   session-compaction.jsonl  three turns, a manual compaction shadowing the first two turns' surface
//                             nodes (compaction/start, /summary, the replacing user/message, /end), then
//                             a fourth turn whose answer is streamed as chunks (a packed text-chunks row).
//   session-hostile.jsonl     a closed session whose messages, tool arguments and results carry markup,
//                             scripts, javascript: links, bidi overrides and a 1 MB string.
//   session-long.jsonl        160 uniform turns around one streamed turn whose marker is off screen.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKPOINT_OPENING, DSH_ROUTE, headerLine, SessionLogBuilder, shape } from './session-log-generator.mjs';

const SOURCE_MODEL = shape.modelSource(DSH_ROUTE);
export const COMPACTION_ID = '3f1c2a9e-7b4d-4e61-9a0c-5d2e8f713b20';
export const COMPACTION_PREAMBLE = CHECKPOINT_OPENING;
/** A string only the fourth turn's streamed answer holds: the search test looks for it off screen. */
export const STREAMED_MARKER = 'quasar-lantern-7781';

export function compactionSample() {
  const b = new SessionLogBuilder();
  const lines = [headerLine({ id: 'sample-compaction-0001' }), ...b.turnLines(), ...b.turnLines(), ...b.turnLines()];
  // Surface nodes of turns 1 and 2: user, assistant (one tool call), tool/result, assistant per turn.
  const shadowed = [2, 4, 6, 9, 14, 16, 18, 21];
  const w = b.writer;
  const startSeq = w.event('compaction/start', shape.compactionBoundary(COMPACTION_ID));
  const summary = [{ type: 'text', text: 'The user asked twice to list src; it holds main.ts and util.ts.' }];
  const summarySeq = w.event(
    'compaction/summary',
    shape.compactionSummary({
      compactionId: COMPACTION_ID,
      summary,
      start: 2,
      end: 21,
      shadowedSeqs: shadowed,
      shadowedTokenCount: 1480,
      route: DSH_ROUTE,
      usage: { inputTokens: 1480, outputTokens: 31 },
    }),
  );
  const source = { kind: 'plugin', plugin: 'compact', compactionId: COMPACTION_ID };
  const checkpoint = shape.checkpointMessage({ summary, source, id: 'checkpoint-000001', guidance: false });
  w.replace('user/message', checkpoint, 2, 21, [startSeq, summarySeq, ...shadowed]);
  w.event('compaction/end', shape.compactionBoundary(COMPACTION_ID));
  lines.push(...w.take(), ...streamedTurn(b));
  return lines;
}

/** A turn whose single answer is streamed: block-start, a packed text-chunks row, block-end, finish. */
function streamedTurn(b) {
  const w = b.writer;
  const turn = ++b.turn;
  const chunk = (data) => w.event('assistant/chunk', shape.chunkData(turn, 1, data));
  w.event('turn/start', shape.turnStart(turn));
  w.event('step/start', shape.stepBoundary(turn, 1));
  w.append('user/message', shape.userMessage('Which file holds the entry point?', { kind: 'user' }, `user-${turn}-1`));
  chunk({ type: 'block-start', index: 0, blockType: 'text' });
  const texts = ['The entry ', 'point is ', 'main.ts ', `(${STREAMED_MARKER}).`];
  w.packedRow('text-chunks', { turn, step: 1, index: 0, dt: texts.slice(1).map(() => 3), texts });
  const content = [{ type: 'text', text: texts.join('') }];
  chunk({ type: 'block-end', index: 0, block: content[0] });
  chunk({ type: 'finish', reason: { kind: 'stop' } });
  const message = shape.assistantMessage(content, SOURCE_MODEL, `assistant-${turn}-1`);
  w.append('assistant/message', shape.assistantData(turn, 1, message, { inputTokens: 220, outputTokens: 9 }));
  w.event('step/end', shape.stepBoundary(turn, 1));
  w.event('turn/end', shape.turnEnd(turn));
  return w.take();
}

/** A long closed log (about 2,000 events) whose only streamed turn sits in the middle: its marker is off screen. */
export function longSample() {
  const b = new SessionLogBuilder();
  const lines = [headerLine({ id: 'sample-long-0001' })];
  for (let t = 0; t < 80; t++) lines.push(...b.turnLines());
  lines.push(...streamedTurn(b));
  for (let t = 0; t < 80; t++) lines.push(...b.turnLines());
  return lines;
}

/** Strings that would do something if the view ever treated session text as HTML or as a link. */
export const HOSTILE = {
  markup: '<img src=x onerror="window.__pwned=1;alert(1)"><script>alert(2)</script><b>bold?</b>',
  link: '<a href="javascript:alert(3)">click me</a> javascript:alert(4)',
  bidi: 'invoice\u202Egnp.exe',
  style: '<style>body{display:none}</style><iframe src="https://example.com"></iframe>',
};
export const HUGE_LENGTH = 1024 * 1024;

export function hostileSample() {
  const b = new SessionLogBuilder();
  const w = b.writer;
  const turn = ++b.turn;
  const callId = 'call-hostile-1';
  const huge = `${HOSTILE.markup} ${'A'.repeat(HUGE_LENGTH)} end-of-huge`;
  const args = JSON.stringify({ command: HOSTILE.markup, note: HOSTILE.link, file: HOSTILE.bidi });
  w.event('turn/start', shape.turnStart(turn));
  w.event('step/start', shape.stepBoundary(turn, 1));
  const prompt = `${HOSTILE.markup} ${HOSTILE.link} ${HOSTILE.bidi} ${HOSTILE.style}`;
  w.append('user/message', shape.userMessage(prompt, { kind: 'user' }, 'user-hostile-1'));
  const content = [{ type: 'text', text: HOSTILE.style }, shape.toolCallBlock(callId, '<b>bash</b>', args)];
  const usage = { inputTokens: 10, outputTokens: 10 };
  w.append('assistant/message', shape.assistantData(turn, 1, shape.assistantMessage(content, SOURCE_MODEL, 'assistant-hostile-1'), usage));
  const callSeq = w.event('tool/call', shape.toolCallData(turn, 1, callId, '<b>bash</b>', args));
  const result = shape.toolResultMessage(callId, huge, false, 'result-hostile-1');
  w.append('tool/result', shape.toolResultData(turn, 1, result), [callSeq]);
  w.event('step/end', shape.stepBoundary(turn, 1));
  w.event('step/start', shape.stepBoundary(turn, 2));
  const answer = [{ type: 'text', text: `${HOSTILE.link} ${HOSTILE.bidi}` }];
  w.append('assistant/message', shape.assistantData(turn, 2, shape.assistantMessage(answer, SOURCE_MODEL, 'assistant-hostile-2')));
  w.event('step/end', shape.stepBoundary(turn, 2));
  w.event('turn/end', shape.turnEnd(turn));
  return [headerLine({ id: `hostile-${HOSTILE.bidi}` }), ...w.take()];
}

/** Writes the samples into `dir` (the committed compaction sample, and the two that are only generated). */
export function writeTimelineSamples(dir, names = ['session-compaction.jsonl', 'session-hostile.jsonl', 'session-long.jsonl']) {
  mkdirSync(dir, { recursive: true });
  const all = { 'session-compaction.jsonl': compactionSample, 'session-hostile.jsonl': hostileSample, 'session-long.jsonl': longSample };
  const files = Object.fromEntries(names.map((n) => [n, all[n]()]));
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, name), lines.join('\n') + '\n');
  return Object.keys(files).map((name) => join(dir, name));
}

if (process.argv[1]?.endsWith('timeline-samples.mjs')) {
  // The committed sample goes next to the others (a dynamic import keeps this module loadable by the unit tests' bundle).
  void import('./toolchain.mjs').then(({ REPO }) =>
    console.log(writeTimelineSamples(join(REPO, 'test', 'fixtures', 'sessions'), ['session-compaction.jsonl']).join('\n')),
  );
}
