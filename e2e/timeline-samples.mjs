// Writes the timeline's two sample logs into test/fixtures/sessions/ (committed; run again only to
// change them: `node e2e/timeline-samples.mjs`). Deterministic: the same code gives the same bytes.
//   session-compaction.jsonl  three turns, a manual compaction shadowing the first two turns' surface
//                             nodes (compaction/start, /summary, the replacing user/message, /end), then
//                             a fourth turn whose answer is streamed as chunks (a packed text-chunks row).
//   session-hostile.jsonl     a closed session whose messages, tool arguments and results carry markup,
//                             scripts, javascript: links, bidi overrides and a 1 MB string.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headerLine, SessionLogBuilder } from './session-log-generator.mjs';

const PROVIDER = 'deepseek-official';
const MODEL = 'deepseek-v4-flash';
export const COMPACTION_ID = '3f1c2a9e-7b4d-4e61-9a0c-5d2e8f713b20';
export const COMPACTION_PREAMBLE =
  'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context.';
/** A string only the fourth turn's streamed answer holds: the search test looks for it off screen. */
export const STREAMED_MARKER = 'quasar-lantern-7781';

export function compactionSample() {
  const b = new SessionLogBuilder();
  const lines = [headerLine({ id: 'sample-compaction-0001' }), ...b.turnLines(), ...b.turnLines(), ...b.turnLines()];
  // Surface nodes of turns 1 and 2: user, assistant (one tool call), tool/result, assistant per turn.
  const shadowed = [2, 4, 6, 9, 14, 16, 18, 21];
  const startSeq = b.seq;
  lines.push(b.event('compaction/start', { compactionId: COMPACTION_ID, turn: null }));
  const summarySeq = b.seq;
  const summary = [{ type: 'text', text: 'The user asked twice to list src; it holds main.ts and util.ts.' }];
  lines.push(
    b.event('compaction/summary', {
      compactionId: COMPACTION_ID,
      summary,
      shadowedRange: { start: 2, end: 21 },
      shadowedSeqs: shadowed,
      shadowedTokenCount: 1480,
      provider: PROVIDER,
      model: MODEL,
      usage: { inputTokens: 1480, outputTokens: 31 },
    }),
  );
  lines.push(
    b.event(
      'user/message',
      {
        content: [
          { type: 'text', text: `${COMPACTION_PREAMBLE}\n\n<compacted-summary>` },
          ...summary,
          { type: 'text', text: '</compacted-summary>' },
        ],
        source: { kind: 'plugin', plugin: 'compact', compactionId: COMPACTION_ID },
        role: 'user',
        id: 'checkpoint-000001',
      },
      { sourceEventSeqs: [startSeq, summarySeq, ...shadowed], surfaceOp: { op: 'replace', start: 2, end: 21 } },
    ),
  );
  lines.push(b.event('compaction/end', { compactionId: COMPACTION_ID, turn: null }));
  lines.push(...streamedTurn(b));
  return lines;
}

/** A turn whose single answer is streamed: block-start, a packed text-chunks row, block-end, finish. */
function streamedTurn(b) {
  const turn = ++b.turn;
  const lines = [];
  lines.push(b.event('turn/start', { turn }));
  lines.push(b.event('step/start', { turn, step: 1 }));
  lines.push(
    b.event(
      'user/message',
      {
        content: [{ type: 'text', text: 'Which file holds the entry point?' }],
        source: { kind: 'user' },
        role: 'user',
        id: `user-${turn}-1`,
      },
      { surfaceOp: 'append' },
    ),
  );
  lines.push(b.event('assistant/chunk', { turn, step: 1, chunk: { type: 'block-start', index: 0, blockType: 'text' } }));
  const texts = ['The entry ', 'point is ', 'main.ts ', `(${STREAMED_MARKER}).`];
  const seq0 = b.seq;
  const time0 = (b.time += 7);
  b.seq += texts.length;
  b.time += 3 * (texts.length - 1);
  lines.push(
    JSON.stringify({ type: 'text-chunks', seq0, time0, data: { turn, step: 1, index: 0, dt: texts.slice(1).map(() => 3), texts } }),
  );
  const text = texts.join('');
  lines.push(b.event('assistant/chunk', { turn, step: 1, chunk: { type: 'block-end', index: 0, block: { type: 'text', text } } }));
  lines.push(b.event('assistant/chunk', { turn, step: 1, chunk: { type: 'finish', reason: { kind: 'stop' } } }));
  lines.push(
    b.event(
      'assistant/message',
      {
        turn,
        step: 1,
        message: {
          role: 'assistant',
          content: [{ type: 'text', text }],
          source: { kind: 'model', provider: PROVIDER, model: MODEL },
          id: `assistant-${turn}-1`,
        },
        usage: { inputTokens: 220, outputTokens: 9 },
      },
      { surfaceOp: 'append' },
    ),
  );
  lines.push(b.event('step/end', { turn, step: 1 }));
  lines.push(b.event('turn/end', { turn, reason: { kind: 'completed' } }));
  return lines;
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
  const turn = ++b.turn;
  const callId = 'call-hostile-1';
  const huge = `${HOSTILE.markup} ${'A'.repeat(HUGE_LENGTH)} end-of-huge`;
  const args = JSON.stringify({ command: HOSTILE.markup, note: HOSTILE.link, file: HOSTILE.bidi });
  const lines = [headerLine({ id: `hostile-${HOSTILE.bidi}` })];
  lines.push(b.event('turn/start', { turn }));
  lines.push(b.event('step/start', { turn, step: 1 }));
  lines.push(
    b.event(
      'user/message',
      {
        content: [{ type: 'text', text: `${HOSTILE.markup} ${HOSTILE.link} ${HOSTILE.bidi} ${HOSTILE.style}` }],
        source: { kind: 'user' },
        role: 'user',
        id: 'user-hostile-1',
      },
      { surfaceOp: 'append' },
    ),
  );
  lines.push(
    b.event(
      'assistant/message',
      {
        turn,
        step: 1,
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: HOSTILE.style },
            { type: 'tool-call', id: callId, name: '<b>bash</b>', arguments: args },
          ],
          source: { kind: 'model', provider: PROVIDER, model: MODEL },
          id: 'assistant-hostile-1',
        },
        usage: { inputTokens: 10, outputTokens: 10 },
      },
      { surfaceOp: 'append' },
    ),
  );
  const callSeq = b.seq;
  lines.push(b.event('tool/call', { turn, step: 1, callId, name: '<b>bash</b>', arguments: args }));
  lines.push(
    b.event(
      'tool/result',
      {
        turn,
        step: 1,
        message: {
          source: { kind: 'tool', callId },
          content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: huge }], isError: false }],
          role: 'user',
          id: 'result-hostile-1',
        },
      },
      { sourceEventSeqs: [callSeq], surfaceOp: 'append' },
    ),
  );
  lines.push(b.event('step/end', { turn, step: 1 }));
  lines.push(b.event('step/start', { turn, step: 2 }));
  lines.push(
    b.event(
      'assistant/message',
      {
        turn,
        step: 2,
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: `${HOSTILE.link} ${HOSTILE.bidi}` }],
          source: { kind: 'model', provider: PROVIDER, model: MODEL },
          id: 'assistant-hostile-2',
        },
      },
      { surfaceOp: 'append' },
    ),
  );
  lines.push(b.event('step/end', { turn, step: 2 }));
  lines.push(b.event('turn/end', { turn, reason: { kind: 'completed' } }));
  return lines;
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
