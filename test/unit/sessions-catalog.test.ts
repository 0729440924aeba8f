// The Sessions view's catalogue: dsh's folder naming, what is read from a log's two ends, the listing of
// a sessions root on real files, and lineage. The ends must agree with the core's full read on the
// facts they report (turns, events, open final turn, refusal by header).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession } from '../../src/core';
import {
  buildLineage,
  cwdSlug,
  listFolderLogs,
  listSessions,
  projectDirName,
  readSessionEnds,
  sessionDirName,
  sessionState,
  type CatalogFs,
} from '../../src/core/catalog';
import { encodeDshZstdLog } from '../../src/core/zstd';
import { LogBuilder } from '../support/build-log';

const nodeFs: CatalogFs<string> = {
  async list(dir) {
    try {
      return (await fsp.readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
    } catch {
      return [];
    }
  },
  async stat(file) {
    try {
      const s = await fsp.stat(file);
      return { size: s.size, mtimeMs: s.mtimeMs };
    } catch {
      return undefined;
    }
  },
  async read(file, start, end) {
    const h = await fsp.open(file, 'r');
    try {
      const buf = new Uint8Array(Math.max(0, end - start));
      const { bytesRead } = await h.read(buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead);
    } finally {
      await h.close();
    }
  },
  child: (dir, name) => join(dir, name),
};

function session(
  id: string,
  opts: { turns?: number; open?: boolean; parent?: string; prompt?: string; padding?: number } = {},
): LogBuilder {
  const b = new LogBuilder({
    id,
    cwd: '/home/dev/project',
    ...(opts.parent ? { parentSession: opts.parent, origin: 'subagent', seedLength: 0, delegationDepth: 1 } : {}),
  });
  const turns = opts.turns ?? 2;
  for (let t = 1; t <= turns; t++) {
    b.turnStart();
    b.stepStart();
    b.user(t === 1 ? (opts.prompt ?? `first prompt of ${id}`) : `prompt ${t} ${'x'.repeat(opts.padding ?? 0)}`);
    b.assistant({ text: 'answer' });
    b.stepEnd();
    if (!(opts.open && t === turns)) b.turnEnd();
  }
  return b;
}

describe('sessions catalogue', () => {
  it('names project and session folders the way dsh does', () => {
    assert.equal(cwdSlug('/home/dev/project'), 'home-dev-project');
    assert.equal(projectDirName('/home/dev/project'), '--home-dev-project--');
    assert.equal(projectDirName(undefined), '_no-cwd');
    assert.equal(cwdSlug('C:\\Users\\me\\my app'), 'C-Users-me-my~0020app');
    assert.equal(cwdSlug('//a::b'), 'a-b');
    assert.equal(cwdSlug('/'), 'root');
    assert.equal(cwdSlug('/home/~x'), 'home-~007Ex');
    assert.equal(cwdSlug('/' + 'a'.repeat(400)).length, 251);
    assert.equal(sessionDirName('a/b.c'), 'a~002Fb.c');
    assert.equal(sessionDirName('..'), '~002E~002E');
  });

  it('reads title, turns, events and an open final turn from the ends of a large log, as the full read does', () => {
    const b = session('big', { turns: 40, open: true, padding: 6000, prompt: '  Fix the\nflaky   test ' });
    const bytes = b.bytes();
    assert.ok(bytes.length > 200 * 1024, 'larger than head + tail');
    const full = loadSession(bytes);
    const tailStart = bytes.length - 64 * 1024;
    const ends = readSessionEnds({
      head: bytes.subarray(0, 128 * 1024),
      headIsWhole: false,
      tail: bytes.subarray(tailStart),
      tailStartsAtLine: false,
    });
    assert.equal(ends.header?.id, 'big');
    assert.equal(ends.title, 'Fix the flaky test');
    assert.equal(ends.turns, 40);
    assert.equal(ends.events, full.eventCount);
    assert.equal(ends.lastTurnOpen, true);
    assert.equal(full.closers.length > 0, true, 'the core agrees the final turn is open');
    assert.equal(ends.refusal, undefined);
  });

  it('says nothing of turns, events or state when only the start of a large log could be read', () => {
    const bytes = session('head-only', { turns: 30 }).bytes();
    const ends = readSessionEnds({ head: bytes.subarray(0, Math.floor(bytes.length / 2)), headIsWhole: false });
    assert.equal(ends.header?.id, 'head-only');
    assert.equal(ends.title, 'first prompt of head-only');
    assert.equal(ends.turns, undefined, 'the turns of its start are not the log’s');
    assert.equal(ends.events, undefined);
    assert.equal(ends.lastTurnOpen, undefined);
    assert.equal(sessionState(ends, 0, 0), 'unknown');
  });

  it('says closed, live or crashed from the final turn and the file time', () => {
    const closed = readSessionEnds({ head: session('c').bytes(), headIsWhole: true });
    assert.equal(closed.lastTurnOpen, false);
    assert.equal(sessionState(closed, 0, 10 ** 9), 'closed');
    const open = readSessionEnds({ head: session('o', { open: true }).bytes(), headIsWhole: true });
    assert.equal(sessionState(open, 1000, 1000 + 5_000), 'live');
    assert.equal(sessionState(open, 1000, 1000 + 3_600_000), 'crashed');
  });

  it('refuses what dsh refuses at the ends: a legacy header, a newer format than today’s, an unknown event type', () => {
    const legacy = '{"type":"session","version":0,"id":"x","createdAt":1}\n';
    assert.equal(sessionState(readSessionEnds({ head: new TextEncoder().encode(legacy), headIsWhole: true }), 0, 0), 'refused');
    const newer = session('n');
    newer.lines[0] = newer.lines[0].replace('"version":0', '"version":5');
    const v5 = readSessionEnds({ head: newer.bytes(), headIsWhole: true });
    assert.equal(v5.refusal?.message, 'stored Session uses newer format v5; this build writes v4');
    // A file named session.jsonl is a v0 log whatever its header says: dsh 0.1.x refuses the newer version.
    const named = readSessionEnds({ head: newer.bytes(), headIsWhole: true, nameVersion: 0 });
    assert.match(named.refusal?.message ?? '', /newer harness/);
    const unknown = session('u');
    unknown.rawLine(JSON.stringify({ type: 'future/thing', seq: unknown.nextSeq, time: 1, data: {} }));
    assert.equal(readSessionEnds({ head: unknown.bytes(), headIsWhole: true }).refusal?.rule, 'known-types');
    assert.equal(readSessionEnds({ head: new Uint8Array(0), headIsWhole: true }).refusal?.rule, 'header.line-shape');
  });

  it('puts subagent children under their parent, and never loses a cycle', () => {
    const l = buildLineage([
      { id: 'p' },
      { id: 'c1', parentSession: 'p' },
      { id: 'c2', parentSession: 'c1' },
      { id: 'orphan', parentSession: 'gone' },
      { id: 'a', parentSession: 'b' },
      { id: 'b', parentSession: 'a' },
    ]);
    assert.deepEqual(
      l.roots.map((e) => e.id),
      ['p', 'orphan', 'a', 'b'],
    );
    assert.deepEqual(
      l.children.get('p')?.map((e) => e.id),
      ['c1'],
    );
    assert.deepEqual(
      l.children.get('c1')?.map((e) => e.id),
      ['c2'],
    );
  });

  describe('listing a sessions root on disk', () => {
    let root: string;
    before(() => {
      root = mkdtempSync(join(tmpdir(), 'sessions-'));
      const write = (project: string, id: string, name: string, bytes: Uint8Array, ageMs: number) => {
        const dir = join(root, project, sessionDirName(id));
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, name), bytes);
        const t = (Date.now() - ageMs) / 1000;
        utimesSync(join(dir, name), t, t);
      };
      const project = projectDirName('/home/dev/project');
      write(project, 'closed', 'session.jsonl', session('closed').bytes(), 50_000);
      write(project, 'live', 'session.jsonl', session('live', { open: true }).bytes(), 1_000);
      write(project, 'crashed', 'session.jsonl', session('crashed', { open: true }).bytes(), 86_400_000);
      write(project, 'zstd', 'session.jsonl.zstd', encodeDshZstdLog(session('zstd').lines, { linesPerFrame: 3 }), 60_000);
      write(project, 'child', 'session.jsonl', session('child', { parent: 'closed' }).bytes(), 40_000);
      write(
        '--other--',
        'refused',
        'session.jsonl',
        new TextEncoder().encode('{"type":"session","version":0,"id":"refused","createdAt":1}\n'),
        70_000,
      );
      mkdirSync(join(root, project, 'empty-dir'));
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    it('lists every session newest first with its state, in batches', async () => {
      const batches: number[] = [];
      const entries = await listSessions(nodeFs, root, { batchSize: 2, onBatch: (b) => batches.push(b.length) });
      assert.deepEqual(
        entries.map((e) => e.id),
        ['live', 'child', 'closed', 'zstd', 'refused', 'crashed'],
      );
      assert.deepEqual(Object.fromEntries(entries.map((e) => [e.id, e.state])), {
        live: 'live',
        child: 'closed',
        closed: 'closed',
        zstd: 'closed',
        refused: 'refused',
        crashed: 'crashed',
      });
      assert.equal(
        batches.reduce((a, b) => a + b, 0),
        6,
      );
      const zstd = entries.find((e) => e.id === 'zstd')!;
      assert.equal(zstd.compressed, true);
      assert.equal(zstd.turns, 2);
      assert.equal(zstd.title, 'first prompt of zstd');
      assert.equal(entries.find((e) => e.id === 'child')?.header?.parentSession, 'closed');
    });

    it('reads the turns and state of a large zstd log from its last frames, not its start', async () => {
      // Stored (raw) frames keep the file as large as its text: well past the size decoded whole.
      const big = mkdtempSync(join(tmpdir(), 'catalog-big-'));
      try {
        const write = (name: string, lines: readonly string[]) => {
          const dir = join(big, projectDirName('/home/dev/project'), name);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, 'session.jsonl.zstd'), encodeDshZstdLog(lines, { linesPerFrame: 20, encoder: 'raw' }));
        };
        write('closed-big', session('closed-big', { turns: 60, padding: 100_000 }).lines);
        write('live-big', session('live-big', { turns: 60, padding: 100_000, open: true }).lines);
        const entries = await listSessions(nodeFs, big);
        const closed = entries.find((e) => e.id === 'closed-big')!;
        assert.ok(closed.size > 4 * 1024 * 1024, `the log is ${closed.size} bytes`);
        assert.equal(closed.turns, 60);
        assert.equal(closed.state, 'closed');
        assert.equal(closed.title, 'first prompt of closed-big');
        const live = entries.find((e) => e.id === 'live-big')!;
        assert.equal(live.turns, 60);
        assert.notEqual(live.state, 'closed');
      } finally {
        rmSync(big, { recursive: true, force: true });
      }
    });

    it('reads the state of a log dsh migrated (all its events in one frame, larger than the tail window) from that frame’s end', async () => {
      const big = mkdtempSync(join(tmpdir(), 'catalog-one-frame-'));
      try {
        const dir = join(big, projectDirName('/home/dev/project'), 'migrated');
        mkdirSync(dir, { recursive: true });
        // A header frame, then one stored frame of ~20 MB: the tail search finds no whole frame in its window.
        const lines = session('migrated', { turns: 200, padding: 100_000 }).lines;
        writeFileSync(join(dir, 'session.jsonl.zstd'), encodeDshZstdLog(lines, { linesPerFrame: 1_000_000, encoder: 'raw' }));
        const [entry] = await listSessions(nodeFs, big);
        assert.ok(entry.size > 17 * 1024 * 1024, `the log is ${entry.size} bytes`);
        assert.equal(entry.turns, 200, 'the turns of the whole log, not of its first frames');
        assert.equal(entry.events, loadSession(new TextEncoder().encode(lines.join('\n') + '\n')).eventCount);
        assert.equal(entry.state, 'closed');
        assert.equal(entry.title, 'first prompt of migrated');
      } finally {
        rmSync(big, { recursive: true, force: true });
      }
    });

    it('lists the session logs of a workspace folder: loose logs by their header, session folders by their current generation', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'catalog-folder-'));
      try {
        writeFileSync(join(folder, 'session-small.jsonl'), session('small').bytes());
        writeFileSync(join(folder, 'session-small.jsonl.zstd'), encodeDshZstdLog(session('small-z').lines));
        writeFileSync(
          join(folder, 'session-legacy-header.jsonl'),
          '{"type":"session","version":0,"id":"legacy","createdAt":1786348800000,"cwd":"/home/dev/project"}\n',
        );
        writeFileSync(join(folder, 'data.jsonl'), '{"type":"row","id":1}\n');
        writeFileSync(join(folder, 'notes.txt'), 'not a log');
        mkdirSync(join(folder, 'abc'));
        writeFileSync(join(folder, 'abc', 'session.jsonl'), session('in-folder', { open: true }).bytes());
        mkdirSync(join(folder, 'other'));
        writeFileSync(join(folder, 'other', 'readme.md'), '#');
        const entries = await listFolderLogs(nodeFs, folder);
        // A header dsh refuses names no session it accepts: the file is listed under its own name.
        assert.deepEqual(entries.map((e) => e.id).sort(), ['in-folder', 'session-legacy-header.jsonl', 'small', 'small-z']);
        const byId = Object.fromEntries(entries.map((e) => [e.id, e]));
        assert.equal(byId.small.state, 'closed');
        assert.equal(byId['small-z'].compressed, true);
        assert.equal(byId['session-legacy-header.jsonl'].state, 'refused', 'listed although dsh refuses its header');
        assert.equal(byId['in-folder'].fileName, 'session.jsonl');
        assert.equal(byId['in-folder'].generation, 0);
        assert.deepEqual(await listFolderLogs(nodeFs, join(folder, 'missing')), []);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('lists a session folder with several generations once, by its current generation (v4 beside v0)', async () => {
      const mixed = mkdtempSync(join(tmpdir(), 'catalog-generations-'));
      try {
        const dir = join(mixed, projectDirName('/home/dev/project'), 'gen');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'session.jsonl'), session('gen', { prompt: 'the old v0 prompt' }).bytes());
        const v4 = [
          {
            type: 'session',
            version: 4,
            id: 'gen',
            createdAt: 1790566681407,
            cwd: '/home/dev/project',
            isSeeded: false,
            delegationDepth: 0,
          },
          { type: 'turn/start', seq: 0, time: 1790566681428, data: { turn: 1 } },
          { type: 'step/start', seq: 1, time: 1790566681535, data: { turn: 1, step: 1 } },
          {
            type: 'system/message',
            seq: 2,
            time: 1790566681537,
            data: { turn: 1, step: 1, message: { role: 'system', content: [], source: { kind: 'system-prompt' }, id: 's1' } },
            surfaceOp: 'append',
          },
          {
            type: 'user/message',
            seq: 3,
            time: 1790566681538,
            data: { content: [{ type: 'text', text: 'the v4 prompt' }], source: { kind: 'user' }, role: 'user', id: 'u1' },
            surfaceOp: 'append',
          },
          { type: 'step/end', seq: 4, time: 1790566682624, data: { turn: 1, step: 1 } },
          { type: 'turn/end', seq: 5, time: 1790566682629, data: { turn: 1, reason: { kind: 'completed' } } },
        ];
        writeFileSync(join(dir, 'session.v4.jsonl.zstd'), encodeDshZstdLog(v4.map((e) => JSON.stringify(e))));
        writeFileSync(join(dir, 'session.v4.jsonl.tmp'), 'not a generation');
        const entries = await listSessions(nodeFs, mixed);
        assert.equal(entries.length, 1);
        const entry = entries[0];
        assert.equal(entry.fileName, 'session.v4.jsonl.zstd');
        assert.deepEqual(entry.otherGenerations, ['session.jsonl']);
        assert.equal(entry.refusal, undefined, JSON.stringify(entry.refusal));
        assert.equal(entry.title, 'the v4 prompt');
        assert.equal(entry.turns, 1);
        assert.equal(entry.state, 'closed');
        assert.equal(entry.header?.version, 4);
      } finally {
        rmSync(mixed, { recursive: true, force: true });
      }
    });

    it("lists only the workspace folder's project when asked", async () => {
      const entries = await listSessions(nodeFs, root, { projectDirs: ['--other--'] });
      assert.deepEqual(
        entries.map((e) => e.id),
        ['refused'],
      );
    });

    it('lists nothing (and does not throw) for a missing root', async () => {
      assert.deepEqual(await listSessions(nodeFs, join(root, 'nope')), []);
    });

    it('never writes the logs it reads', async () => {
      const before = readdirSync(root, { recursive: true }).map(String).sort();
      const file = join(root, projectDirName('/home/dev/project'), 'live', 'session.jsonl');
      const bytes = readFileSync(file);
      const mtime = statSync(file).mtimeMs;
      await listSessions(nodeFs, root);
      assert.deepEqual(readdirSync(root, { recursive: true }).map(String).sort(), before);
      assert.deepEqual(readFileSync(file), bytes);
      assert.equal(statSync(file).mtimeMs, mtime);
    });
  });
});
