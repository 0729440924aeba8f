// Shared data for the zstd tests: JSONL lines, frames built by hand, and a frame made by the reference
// `zstd` CLI (1.5.4, level 3) that holds a real compressed block.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { concatBytes, encodeRawZstdFrame, type RawFrameOptions } from '../../src/core/zstd';

export const enc = new TextEncoder();
export const dec = new TextDecoder();

export const HEADER = '{"type":"session","version":0,"id":"zstd-test","createdAt":0,"cwd":"/tmp/x","delegationDepth":0}';

/** `count` event lines starting at `seq`, without newlines. */
export function eventLines(seq: number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++)
    out.push(
      `{"type":"session/title","seq":${seq + i},"time":0,"data":{"title":"line ${seq + i}","messageSeqs":[],"source":{"kind":"fallback"}}}`,
    );
  return out;
}

/** The text of lines, each followed by a newline. */
export function text(lines: readonly string[]): string {
  return lines.map((l) => l + '\n').join('');
}

/** A frame of stored blocks holding `content` (a string is UTF-8 encoded as is). */
export function rawFrame(content: string | Uint8Array, options?: RawFrameOptions): Uint8Array {
  return encodeRawZstdFrame(typeof content === 'string' ? enc.encode(content) : content, options);
}

/** Header frame + one frame per batch, all stored blocks. Returns the file and each frame's start. */
export function rawLog(
  batches: readonly (readonly string[])[],
  options?: RawFrameOptions,
): { file: Uint8Array; starts: number[]; frames: Uint8Array[] } {
  const frames = [rawFrame(HEADER + '\n'), ...batches.map((b) => rawFrame(text(b), options))];
  const starts: number[] = [];
  let p = 0;
  for (const f of frames) {
    starts.push(p);
    p += f.length;
  }
  return { file: concatBytes(frames), starts, frames };
}

/** `zstd -3` of COMPRESSED_TEXT: single segment, content size 196, checksum, one compressed block. */
export const COMPRESSED_TEXT =
  '{"type":"step/start","seq":1,"time":0,"data":{"turn":1,"step":1}}\n' +
  '{"type":"step/end","seq":2,"time":0,"data":{"turn":1,"step":1}}\n' +
  '{"type":"step/start","seq":3,"time":0,"data":{"turn":1,"step":2}}\n';
export const COMPRESSED_FRAME = hexBytes(
  '28b52ffd24c47d020022040e14b0370784dca6100a2ca0cf49417d136168135c9d64d708e6a0' +
    '24bbe58c9471af331e8f2d382731dc56ce45aacd577805525e7dce74dc2b0700e048c11c103877887714414a2a06a6850905716ff4d2',
);

export function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The reference CLI, when this machine has it (an interop extra; CI machines may lack it). */
export function zstdCli(): string | undefined {
  for (const path of ['/usr/bin/zstd', '/usr/local/bin/zstd']) if (existsSync(path)) return path;
  const which = spawnSync('sh', ['-c', 'command -v zstd'], { encoding: 'utf8' });
  const found = which.status === 0 ? which.stdout.trim() : '';
  return found || undefined;
}
