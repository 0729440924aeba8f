// Loads a session file's bytes, plain or zstd (detected by the frame magic, not by the name).
import type { LoadOptions } from './api';
import { SessionLog } from './session-log';
import { decodeZstdLog, isZstd, type ZstdDecodeResult } from './zstd/decode';

/** What the zstd container held, for the views and `inspect`. */
export interface ZstdSummary {
  compressedBytes: number;
  frames: number;
  committedCompressedBytes: number;
  tornFrameStart?: number;
  recoveredBytes?: number;
  error?: string;
  backend: string;
}

export interface LoadedFile {
  log: SessionLog;
  zstd?: ZstdSummary;
  /** The decoded frames, for following a growing zstd file. */
  zstdResult?: ZstdDecodeResult;
}

function summarize(result: ZstdDecodeResult): ZstdSummary {
  const summary: ZstdSummary = {
    compressedBytes: result.compressedBytes,
    frames: result.frames,
    committedCompressedBytes: result.committedCompressedBytes,
    backend: result.backend,
  };
  if (result.tornFrameStart !== undefined) summary.tornFrameStart = result.tornFrameStart;
  if (result.recoveredBytes !== undefined) summary.recoveredBytes = result.recoveredBytes;
  if (result.error) summary.error = `${result.error.message} (${result.error.detail})`;
  return summary;
}

function prepare(bytes: Uint8Array, options: LoadOptions): LoadedFile {
  if (!isZstd(bytes)) return { log: new SessionLog(bytes, options) };
  const result = decodeZstdLog(bytes);
  const log = new SessionLog(result.text, options);
  const error = result.error;
  if (error) {
    const stage = error.rule === 'zstd.header-less' || error.rule === 'zstd.header-frame' ? 'header' : 'parse';
    log.refuseContainer(stage, error.message, error.rule, error.detail);
  }
  return { log, zstd: summarize(result), zstdResult: result };
}

/** Synchronous load of a whole file. Never throws on bad input. */
export function loadSessionFile(bytes: Uint8Array, options: LoadOptions = {}): LoadedFile {
  const loaded = prepare(bytes, options);
  loaded.log.ingest(Infinity, options.onProgress);
  return loaded;
}

/** The same in slices, yielding between them so a host can show progress and stay responsive. */
export async function loadSessionFileAsync(bytes: Uint8Array, options: LoadOptions = {}): Promise<LoadedFile> {
  const loaded = prepare(bytes, options);
  while (!loaded.log.ingest(50, options.onProgress)) await new Promise((resolve) => setTimeout(resolve, 0));
  return loaded;
}
