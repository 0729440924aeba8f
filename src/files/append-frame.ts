// The one zstd frame an append to a compressed log writes (dsh writes one frame per batch): compressed
// by the running Node's zlib where it has zstd (22.15 / 23.8 on), else by the reference `zstd` tool when
// it is on the PATH (the CLI on Node 20), else built of stored blocks — valid, only not smaller. Each
// way asks decoders for a small window (the compressors choose one of a few MiB; a large stored frame
// declares one block, see encodeRawZstdFrame), so no decoder refuses the frame whatever its size.
import { spawnSync } from 'node:child_process';
import { encodeZstdFrame } from '../core/internal';
import { zlibZstd } from '../node/zlib-zstd';

export type FrameEncoding = 'zlib' | 'zstd tool' | 'stored blocks';

export interface AppendFrame {
  frame: Uint8Array;
  encoding: FrameEncoding;
}

/** The reference zstd tool at its default level, with the content size and checksum in the frame. */
function zstdTool(text: Uint8Array): Uint8Array | undefined {
  const r = spawnSync('zstd', ['-q', '-c', '--check', '--no-progress', `--stream-size=${text.length}`], {
    input: text,
    maxBuffer: text.length + 1024 * 1024,
    timeout: 120_000,
  });
  if (r.error || r.status !== 0 || !r.stdout || r.stdout.length < 8) return undefined;
  return new Uint8Array(r.stdout.buffer, r.stdout.byteOffset, r.stdout.length);
}

export function encodeAppendFrame(text: Uint8Array): AppendFrame {
  const codec = zlibZstd();
  if (codec) return { frame: encodeZstdFrame(text, { codec }), encoding: 'zlib' };
  const tool = zstdTool(text);
  if (tool) return { frame: tool, encoding: 'zstd tool' };
  return { frame: encodeZstdFrame(text, { encoder: 'raw' }), encoding: 'stored blocks' };
}
