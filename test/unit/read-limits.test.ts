// The line limit (LoadOptions.limits.maxLineBytes): a line longer than the limit stops the read with
// a diagnostic naming the line and the limit, after work proportional to the limit — the long line is
// never decoded. Logs are generated here; the memory bounds are measured in child processes.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession, loadSessionFile } from '../../src/core';
import { LogBuilder, richLog } from '../support/build-log';
import { repoRoot } from '../support/paths';

const encoder = new TextEncoder();

/** A log of a few events whose `at`th event line (0-based, after the header) is padded to `bytes`. */
function logWithLongLine(at: number, bytes: number): { text: string; longLine: number } {
  const b = richLog();
  const lines = [...b.lines];
  const target = lines[at + 1];
  const record = JSON.parse(target);
  record.data = { ...(record.data ?? {}), padding: '' };
  const short = JSON.stringify(record);
  record.data.padding = 'x'.repeat(Math.max(0, bytes - short.length));
  lines[at + 1] = JSON.stringify(record);
  return { text: lines.join('\n') + '\n', longLine: at + 2 };
}

describe('read limits: the line limit', () => {
  it('stops at a line longer than maxLineBytes, naming the line and the limit, and keeps what came before', () => {
    const { text, longLine } = logWithLongLine(3, 5000);
    const log = loadSession(encoder.encode(text), { limits: { maxLineBytes: 1000 } });
    const verdict = log.verdict;
    assert.equal(verdict.ok, false);
    assert.equal(verdict.stage, 'parse');
    assert.equal(verdict.rule, 'limits.line-bytes');
    assert.equal(verdict.line, longLine);
    assert.equal(log.eventCount, 3, 'the events before the long line are kept');
    const diagnostic = log.diagnostics.find((d) => d.rule === 'limits.line-bytes');
    assert.ok(diagnostic, 'a diagnostic names the rule');
    assert.equal(diagnostic.line, longLine);
    assert.match(diagnostic.message, /read limit of 1000 bytes/);
    assert.match(diagnostic.message, new RegExp(`line ${longLine}\\b`));
  });

  it('reads the same log in full under the default limit', () => {
    const { text } = logWithLongLine(3, 5000);
    const log = loadSession(encoder.encode(text));
    assert.ok(log.verdict.ok, JSON.stringify(log.verdict));
    assert.equal(log.diagnostics.filter((d) => d.rule === 'limits.line-bytes').length, 0);
  });

  it('a line of exactly the limit is read', () => {
    const { text } = logWithLongLine(3, 1000);
    const length = text.split('\n')[4].length;
    const log = loadSession(encoder.encode(text), { limits: { maxLineBytes: length } });
    assert.ok(log.verdict.ok, JSON.stringify(log.verdict));
    const over = loadSession(encoder.encode(text), { limits: { maxLineBytes: length - 1 } });
    assert.equal(over.verdict.rule, 'limits.line-bytes');
  });

  it('refuses a header line over the limit at the header stage', () => {
    const b = new LogBuilder({ cwd: `/work/${'p'.repeat(3000)}` });
    const log = loadSession(encoder.encode(b.text()), { limits: { maxLineBytes: 500 } });
    assert.equal(log.verdict.stage, 'header');
    assert.equal(log.verdict.rule, 'limits.line-bytes');
    assert.equal(log.verdict.line, 1);
  });

  it('stops at a final line without a newline once it is past the limit (a growing line is not waited for)', () => {
    const { text } = logWithLongLine(3, 100);
    const torn = text + 'x'.repeat(2000);
    const log = loadSession(encoder.encode(torn), { limits: { maxLineBytes: 1000 } });
    assert.equal(log.verdict.rule, 'limits.line-bytes');
    const under = loadSession(encoder.encode(text + 'x'.repeat(500)), { limits: { maxLineBytes: 1000 } });
    assert.ok(under.verdict.ok, 'a short torn tail is still just a torn tail');
  });

  it('does not read on when the file grows after the limit stopped it', () => {
    const { text } = logWithLongLine(2, 5000);
    const log = loadSession(encoder.encode(text), { limits: { maxLineBytes: 1000 } });
    const count = log.eventCount;
    const grown = log.extend(encoder.encode('{"type":"feedback/record","seq":99,"time":0,"data":{}}\n'));
    assert.equal(grown.added, 0);
    assert.equal(log.eventCount, count);
    assert.equal(log.verdict.rule, 'limits.line-bytes');
  });

  it('loadSessionFile (the CLI and editor path) honours the limit too', () => {
    const { text } = logWithLongLine(3, 5000);
    const loaded = loadSessionFile(encoder.encode(text), { limits: { maxLineBytes: 1000 } });
    assert.equal(loaded.log.verdict.rule, 'limits.line-bytes');
  });
});

describe('read limits: memory and the engine string limit (child processes)', function () {
  this.timeout(180_000);
  let dir: string;
  let bundle: string;

  before(function () {
    dir = mkdtempSync(join(tmpdir(), 'session-surface-limits-'));
    bundle = join(dir, 'core.cjs');
    // The child loads the core on its own, bundled by the project's esbuild.
    const build = spawnSync(
      process.execPath,
      [
        '-e',
        `require('esbuild').buildSync({ entryPoints: ['src/core/index.ts'], bundle: true, platform: 'node', format: 'cjs', outfile: ${JSON.stringify(bundle)}, logLevel: 'error' })`,
      ],
      { cwd: repoRoot(), encoding: 'utf8' },
    );
    assert.equal(build.status, 0, build.stderr);
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Builds a log whose second event line is `lineBytes` long in a child, records the child's peak RSS,
   * loads it with `maxLineBytes`, and reports the verdict and how much the peak grew during the load.
   */
  function loadHugeLine(
    lineBytes: number,
    maxLineBytes: number,
  ): { rule: string; line: number; events: number; peakGrowthBytes: number; message: string } {
    const script = `
      const core = require(${JSON.stringify(bundle)});
      const header = '{"type":"session","version":0,"id":"huge","createdAt":0,"delegationDepth":0,"cwd":"/work"}\\n';
      const first = '{"type":"feedback/record","seq":0,"time":0,"data":{}}\\n';
      const prefix = Buffer.from(header + first + '{"type":"feedback/record","seq":1,"time":0,"data":{"text":"');
      const bytes = new Uint8Array(prefix.length + ${lineBytes} + 1);
      bytes.set(prefix, 0);
      bytes.fill(0x61, prefix.length, bytes.length - 1);
      bytes[bytes.length - 1] = 0x0a;
      const before = process.resourceUsage().maxRSS * 1024;
      const log = core.loadSession(bytes, { limits: { maxLineBytes: ${maxLineBytes} } });
      const verdict = log.verdict;
      const d = log.diagnostics.find((x) => x.rule === verdict.rule) || {};
      const after = process.resourceUsage().maxRSS * 1024;
      process.stdout.write(JSON.stringify({ rule: verdict.rule, line: verdict.line, events: log.eventCount, peakGrowthBytes: after - before, message: d.message }));
    `;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
    assert.equal(r.status, 0, `the child crashed: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  it('a 64 MiB line under a 1 MiB limit: refused with the diagnostic, the peak grows by far less than the line', () => {
    const result = loadHugeLine(64 * 1024 * 1024, 1024 * 1024);
    assert.equal(result.rule, 'limits.line-bytes');
    assert.equal(result.line, 3);
    assert.equal(result.events, 1);
    assert.match(result.message, /read limit of 1048576 bytes/);
    // Decoding the line alone would add 64 MiB (and JSON.parse as much again).
    assert.ok(result.peakGrowthBytes < 16 * 1024 * 1024, `peak RSS grew by ${result.peakGrowthBytes} bytes`);
  });

  it("a line longer than the engine's longest string is the diagnostic, not a crash, even under a larger limit", function () {
    // V8's longest string is 2^29 - 24 UTF-16 units; a limit above it is held to it.
    const engineMax = 0x1fffffe8;
    const result = loadHugeLine(engineMax + 64, 2 * 1024 * 1024 * 1024);
    assert.equal(result.rule, 'limits.line-bytes');
    assert.equal(result.line, 3);
    assert.match(result.message, new RegExp(`read limit of ${engineMax} bytes`));
    assert.ok(result.peakGrowthBytes < 64 * 1024 * 1024, `peak RSS grew by ${result.peakGrowthBytes} bytes`);
  });
});

describe('scan statistics: packed rows', () => {
  it('count a malformed packed row at the open tail, as dsh counts a row once it recognises its tag', () => {
    const b = new LogBuilder();
    b.turnStart();
    b.stepStart();
    b.textChunks(['a', 'b', 'c']);
    const valid = loadSession(encoder.encode(b.text()));
    assert.equal(valid.scan.packedRows, 1);
    // A second row, malformed (dt does not match its members), at the end of an open turn.
    const broken =
      b.text() +
      JSON.stringify({ type: 'text-chunks', seq0: b.nextSeq, time0: 0, data: { turn: 1, step: 1, index: 0, dt: [], texts: ['x', 'y'] } }) +
      '\n';
    const log = loadSession(encoder.encode(broken));
    assert.ok(log.verdict.ok, 'an open tail: dsh drops the damaged line and loads the prefix');
    assert.equal(log.scan.packedRows, 2, 'the malformed row is counted');
    assert.equal(log.eventCount, valid.eventCount, 'its members are not kept');
    assert.ok(log.diagnostics.some((d) => d.rule === 'rows.decode'));
  });
});
