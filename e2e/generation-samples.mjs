// Logs of dsh's later generations for the end-to-end tests of the editor on them, made when a test
// starts (deterministic: the same code gives the same bytes):
//   generatedV4Text()       a v4 fork from the project's v4 generator: the protected system head
//                           replaced by new prompts, developer messages, an attempt, tool-role
//                           results, compactions and prunes, the fork's closers after its seed
//   crashedV4Text()         the same log cut after the first tool call recorded after its seed: an
//                           open turn whose repair needs v4 closers (tool-role results)
//   writeGenerationsFolder  a session folder as dsh 0.2 leaves it after opening an old session: the
//                           v0 `session.jsonl` untouched and beside it `session.v4.jsonl.zstd`, the
//                           log migrated to v4 by the project's format layer (the same one dsh's
//                           verdicts were checked against), with the `subagent/catalog` entries the
//                           v3→v4 edge appends from its direct children's logs, and written the way
//                           dsh writes a new generation (the header frame, then the events in one frame)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { scaleV4LogText } from '../test/support/log-generator-v4.mjs';
import { zstdLog } from './crash-tails.mjs';
import { REPO } from './toolchain.mjs';

/** The generator's settings for the test log: 600 events, three system replacements, five developer messages, an attempt. */
const V4_PARAMS = { targetEvents: 600, compactEvery: 8, keepTurns: 2, pruneEvery: 3 };
const V4_SEED = 7;

export function generatedV4() {
  return scaleV4LogText({ params: V4_PARAMS, seed: V4_SEED, name: 'e2e' });
}

export function generatedV4Text() {
  return generatedV4().text;
}

/** The generated log cut right after the first tool/call the child recorded after its seed (an open turn). */
export function crashedV4Text() {
  const { text, generator } = generatedV4();
  const lines = text.split('\n').filter(Boolean);
  for (let i = 1; i < lines.length; i++) {
    const event = JSON.parse(lines[i]);
    if (event.type === 'tool/call' && event.seq > generator.inheritedEventCount + 2) {
      return { text: lines.slice(0, i + 1).join('\n') + '\n', callId: event.data.callId, callSeq: event.seq };
    }
  }
  throw new Error('the generated log has no tool/call after its seed');
}

let format;
/** The project's format layer as a CommonJS bundle, built once per process. */
async function formatLayer(outDir) {
  if (format) return format;
  const outfile = join(outDir, '.format-layer.cjs');
  await esbuild.build({
    stdin: {
      contents: "export * from './src/core/format'; export { childCatalogEvidence } from './src/core/format/v3-to-v4/child-catalog';",
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
  format = createRequire(import.meta.url)(outfile);
  return format;
}

/** A v0 parent session today's dsh migrates, and a v2 subagent child of it (dsh 0.1.5's verdicts in ../shared/conformance-v3). */
export const PARENT_V0 = ['conformance-v3', 'v0-to-v3', 'acp-agent_snapshots_max-tokens-continue_session.hdrfix.notools.jsonl'];
export const CHILD_V2 = ['conformance-v3', 'v2', 'acp-agent_snapshots_max-tokens-continue_session.hdrfix.notools.seeded.session.v2.jsonl'];

/**
 * Writes `dir/session.jsonl` (the v0 log, byte for byte) and `dir/session.v4.jsonl.zstd` (its v4
 * form, migrated with the evidence of the `children` logs). Returns the names and the v4 text.
 */
export async function writeGenerationsFolder(dir, v0File, children = [], outDir = dir) {
  const { readGeneration, encodeArtifact, findGeneration, childCatalogEvidence } = await formatLayer(outDir);
  const evidence = children.map((file) => {
    const read = readGeneration(new Uint8Array(readFileSync(file)), { targetVersion: 3, encode: false, keepArtifact: true });
    if (!read.verdict.ok) throw new Error(`the child sample does not read: ${read.verdict.dshError}`);
    return childCatalogEvidence(read.artifact);
  });
  const v0 = readFileSync(v0File);
  const read = readGeneration(new Uint8Array(v0), {
    targetVersion: 4,
    encode: false,
    keepArtifact: true,
    evidence: { children: evidence },
  });
  if (!read.verdict.ok) throw new Error(`the v0 sample does not migrate: ${read.verdict.dshError}`);
  const { text } = encodeArtifact(read.artifact, findGeneration(4).codec, { keepText: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'session.jsonl'), v0);
  writeFileSync(join(dir, 'session.v4.jsonl.zstd'), zstdLog(text.split('\n').filter(Boolean)));
  return { v0: 'session.jsonl', v4: 'session.v4.jsonl.zstd', v4Text: text };
}
