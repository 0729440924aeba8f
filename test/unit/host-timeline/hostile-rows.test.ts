// The hostile-content sample through the timeline's request handler: every row window, in every order
// and with the filter the webview sends, is answered with a message the webview's validator accepts.
// A window the validator refused would be dropped by the webview and its rows would never show.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSessionFile } from '../../../src/core';
import { handleRequest } from '../../../src/host/timeline/request-handlers';
import { SessionTimeline } from '../../../src/host/timeline/session-timeline';
import { Formatter } from '../../../src/present';
import { isResponseMessage } from '../../../src/protocol';
import { repoRoot } from '../../support/paths';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });

describe('host timeline: the hostile-content sample', () => {
  // The sample is generated (a 1 MB line is not committed), by the same code the end-to-end test uses.
  const dir = mkdtempSync(join(tmpdir(), 'hostile-rows-'));
  const samples = pathToFileURL(join(repoRoot(), 'e2e', 'timeline-samples.mjs')).href;
  execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    `import(${JSON.stringify(samples)}).then((m) => m.writeTimelineSamples(${JSON.stringify(dir)}, ['session-hostile.jsonl']))`,
  ]);
  const bytes = readFileSync(join(dir, 'session-hostile.jsonl'));
  const t = new SessionTimeline(loadSessionFile(bytes), 1, fmt, {
    summaryContext: () => ({
      fileName: 'h.jsonl',
      filePath: '/tmp/h.jsonl',
      turns: 0,
      file: { state: 'following', size: bytes.length, mtimeMs: 0 },
      fileBytes: bytes.length,
      restrictedMode: false,
      loadMs: 1,
      followLiveLogs: true,
    }),
    reveal: async () => true,
    reload: () => {},
  });

  for (const order of ['log', 'surface', 'transcript']) {
    it(`${order}: every window validates`, async () => {
      for (const params of [
        { order, start: 0, count: 200, filter: { collapseChunkRuns: true, expandedRuns: [] } },
        { order, start: 0, count: 50 },
      ]) {
        const response = await handleRequest(t, { type: 'request', id: 1, method: 'rows', params }, () => {});
        assert.ok(response?.ok, JSON.stringify(response).slice(0, 300));
        assert.ok(isResponseMessage(response), `refused by the webview's validator: ${JSON.stringify(response).slice(0, 400)}`);
      }
    });
  }
});
