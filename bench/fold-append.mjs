#!/usr/bin/env node
// Host time to fold one appended event into a loaded 300k-event log, as the session editor does for a
// live log: the core folds the appended bytes (`extendLoadedFile`), the timeline's indexes take in the
// new event (`SessionTimeline.foldAppend`) and the small `appended` notification is built. The view's
// lists are warmed first (Full log, Model view, Transcript, a collapsed view, time spans, the
// diagnostics), as when the editor is open; then 1,000 single-event appends are timed one by one.
// A second figure adds what the view then asks for: a 50-row window at the tail of the Full log and
// of the Model view (lists are extended lazily, never rebuilt).
//
//   node bench/fold-append.mjs [--file bench/out/scale-300k.jsonl] [--appends 1000]
//
// Without the file, it runs `node bench/generate.mjs --sizes 300k --no-zstd` first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleModules, ensureGenerated, option, root } from './bench-setup.mjs';

const file = option('--file', join(root, 'bench', 'out', 'scale-300k.jsonl'));
const appends = Number(option('--appends', '1000'));

ensureGenerated(file, ['--sizes', '300k', '--no-zstd']);
const m = await bundleModules('fold-append', [
  "export { loadSessionFile, extendLoadedFile } from './src/core/index.ts';",
  "export { SessionTimeline } from './src/host/timeline/session-timeline.ts';",
  "export { requestHandlers } from './src/host/timeline/request-handlers.ts';",
  "export { Formatter } from './src/present/index.ts';",
]);

const bytes = new Uint8Array(readFileSync(file));
let started = performance.now();
const source = m.loadSessionFile(bytes);
const loadMs = performance.now() - started;
if (!source.log.verdict.ok) throw new Error(`the log is refused: ${source.log.verdict.error}`);
const fmt = new m.Formatter({ locale: 'en' });
const timeline = new m.SessionTimeline(source, 1, fmt, {
  summaryContext: () => ({
    fileName: 'bench',
    filePath: file,
    turns: 0,
    file: { state: 'following', size: bytes.length, mtimeMs: 0 },
    followLiveLogs: true,
    fileBytes: bytes.length,
    restrictedMode: false,
    loadMs: 0,
  }),
  reveal: async () => false,
  reload: () => {},
});
const indexMs = performance.now() - started - loadMs;

// Warm what an open editor has built: every order, a collapsed view, spans, the diagnostics.
started = performance.now();
const log = source.log;
const handlers = m.requestHandlers(timeline, () => {});
const ask = (method, params) => handlers[method](params);
await ask('rows', { order: 'log', start: 0, count: 50 });
await ask('rows', { order: 'surface', start: 0, count: 50 });
await ask('rows', { order: 'transcript', start: 0, count: 50 });
await ask('rows', { order: 'log', start: 0, count: 50, filter: { collapseChunkRuns: true } });
await ask('timeSpans', { maxSpans: 100 });
timeline.diagnostics();
const warmMs = performance.now() - started;

const encoder = new TextEncoder();
const foldTimes = [];
const withWindowTimes = [];
for (let i = 0; i < appends; i++) {
  const seq = log.eventCount;
  const event =
    i % 2 === 0
      ? {
          type: 'user/message',
          seq,
          time: 1790000000000 + i,
          data: {
            content: [{ type: 'text', text: `appended message ${i}` }],
            source: { kind: 'user' },
            role: 'user',
            id: `bench-append-${i}`,
          },
          surfaceOp: 'append',
        }
      : { type: 'feedback/record', seq, time: 1790000000000 + i, data: { text: `feedback ${i}` } };
  const line = encoder.encode(`${JSON.stringify(event)}\n`);
  const t0 = performance.now();
  const result = m.extendLoadedFile(source, line);
  const { surfaceChanged } = timeline.foldAppend();
  const note = timeline.appendedNote(result.added, surfaceChanged);
  const t1 = performance.now();
  const total = log.eventCount;
  await ask('rows', { order: 'log', start: Math.max(0, total - 50), count: 50 });
  const surfaceTotal = note.counts.events > 0 ? (await ask('rows', { order: 'surface', start: 0, count: 0 })).total : 0;
  await ask('rows', { order: 'surface', start: Math.max(0, surfaceTotal - 50), count: 50 });
  const t2 = performance.now();
  if (result.added !== 1) throw new Error(`append ${i} was not folded: ${JSON.stringify(result.diagnostics)}`);
  foldTimes.push(t1 - t0);
  withWindowTimes.push(t2 - t0);
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p99: at(0.99), max: s[s.length - 1] };
};
const fold = stats(foldTimes);
const win = stats(withWindowTimes);
const f = (x) => x.toFixed(3);
console.log(`log: ${file} (${(bytes.length / 2 ** 20).toFixed(1)} MiB, ${log.eventCount - appends} events before the appends)`);
console.log(`load ${loadMs.toFixed(0)} ms; timeline indexes ${indexMs.toFixed(0)} ms; warming the views ${warmMs.toFixed(0)} ms`);
console.log(
  `fold one appended event (core fold + timeline indexes + appended note), ${appends} appends: median ${f(fold.median)} ms, p99 ${f(fold.p99)} ms, max ${f(fold.max)} ms`,
);
console.log(
  `  … plus the 50-row tail windows of the Full log and the Model view: median ${f(win.median)} ms, p99 ${f(win.p99)} ms, max ${f(win.max)} ms`,
);
console.log(JSON.stringify({ file, events: log.eventCount, appends, loadMs, indexMs, warmMs, foldMs: fold, foldAndWindowsMs: win }));
