// Writes a dsh sessions folder the way dsh lays it out (`<root>/--<cwd slug>--/<id>/session.jsonl[.zstd]`,
// spec §1.1), for the Sessions view tests and the listing benchmark. Folder names and zstd frames come
// from the project's own core (bundled here with esbuild), so they match what the extension reads.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { headerLine, SessionLogBuilder } from './session-log-generator.mjs';
import { REPO } from './toolchain.mjs';

let core;
/** The catalogue and zstd parts of the core, as a CommonJS bundle built once per process. */
export async function catalogCore(outDir) {
  if (core) return core;
  const outfile = join(outDir, '.catalog-core.cjs');
  await esbuild.build({
    stdin: {
      contents: "export * from './src/core/catalog'; export { encodeDshZstdLog } from './src/core/zstd';",
      resolveDir: REPO,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  core = createRequire(import.meta.url)(outfile);
  return core;
}

const DAY = 86_400_000;

/**
 * The lines of one session: `turns` whole turns, the first prompt its `title` (what the Sessions view
 * shows), the last turn left open with `open`. `header.legacy` writes an older writer's header without
 * delegationDepth, which dsh refuses.
 */
function sessionLines({ id, cwd, title, turns = 2, open = false, header = {}, payloadBytes = 0 }) {
  const { legacy, ...fields } = header;
  const b = new SessionLogBuilder({ payloadBytes, firstPrompt: title });
  const head = legacy
    ? JSON.stringify({ type: 'session', version: 0, id, createdAt: 1786348800000, cwd })
    : headerLine({ id, cwd, ...fields });
  const lines = [head];
  for (let t = 1; t <= turns; t++) lines.push(...b.turnLines({ open: open && t === turns }));
  return lines;
}

/**
 * Writes one session. `ageMs` sets the file's modification time that long ago (a live session was
 * written just now; a crashed one long ago).
 */
export async function writeSession(root, { zstd = false, ageMs = 0, ...spec }, outDir = root) {
  const { encodeDshZstdLog, projectDirName, sessionDirName } = await catalogCore(outDir);
  const lines = sessionLines(spec);
  const dir = join(root, projectDirName(spec.cwd), sessionDirName(spec.id));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, zstd ? 'session.jsonl.zstd' : 'session.jsonl');
  writeFileSync(file, zstd ? encodeDshZstdLog(lines, { linesPerFrame: 4 }) : lines.join('\n') + '\n');
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(file, when, when);
  return file;
}

/** The sessions the Sessions view tests expect, all in the project folder of `cwd` but one. */
export const SHOWCASE = [
  { id: 'live-0001', title: 'Live: refactor the parser', open: true, ageMs: 0 },
  { id: 'parent-0001', title: 'Parent: plan the release', ageMs: 60_000, turns: 3 },
  {
    id: 'child-0001',
    title: 'Child: check the changelog',
    ageMs: 90_000,
    header: { parentSession: 'parent-0001', origin: 'subagent', seedLength: 4, delegationDepth: 1 },
  },
  { id: 'closed-0001', title: 'Closed: list the files', ageMs: 2 * 3600_000 },
  { id: 'zstd-0001', title: 'Compressed: summarise the logs', zstd: true, ageMs: 3 * 3600_000, turns: 4 },
  { id: 'refused-0001', title: 'Refused: an old header', header: { legacy: true }, ageMs: 4 * 3600_000 },
  { id: 'crashed-0001', title: 'Crashed: the agent died mid-turn', open: true, ageMs: 2 * DAY },
];

export async function writeShowcase(root, cwd, outDir = root) {
  const files = {};
  for (const s of SHOWCASE) files[s.id] = await writeSession(root, { cwd, ...s }, outDir);
  files['elsewhere-0001'] = await writeSession(
    root,
    { id: 'elsewhere-0001', cwd: '/home/dev/other-project', title: 'Elsewhere: another folder', ageMs: 5 * DAY },
    outDir,
  );
  return files;
}

/** `count` sessions spread over 20 project folders; every 4th compressed, every 10th open, every 25th a subagent. */
export async function writeMany(root, count, outDir = root) {
  for (let i = 0; i < count; i++) {
    const cwd = `/home/dev/project-${i % 20}`;
    const parent = i % 25 === 24 ? `bench-${String(i - 1).padStart(5, '0')}` : undefined;
    await writeSession(
      root,
      {
        id: `bench-${String(i).padStart(5, '0')}`,
        cwd,
        title: `Session ${i}: do the work`,
        turns: 1 + (i % 6),
        open: i % 10 === 9,
        zstd: i % 4 === 3,
        ageMs: i * 60_000,
        payloadBytes: (i % 7) * 2000,
        header: parent ? { parentSession: parent, origin: 'subagent', seedLength: 0, delegationDepth: 1 } : {},
      },
      outDir,
    );
  }
}
