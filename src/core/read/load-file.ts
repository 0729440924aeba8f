// Loads a session file's bytes, plain or zstd (detected by the frame magic, not by the name).
import type { ExtendResult, LoadOptions } from '../api';
import { SessionLog } from './session-log';
import { decodeZstdLog, isZstd, type ZstdDecodeResult } from '../zstd/decode';
import { concatBytes } from '../zstd/encode';

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
  /** For a zstd file: what following it needs (compressed bytes not yet folded in). */
  follow?: ZstdFollowState;
}

/**
 * Following a growing zstd log: a writer appends whole frames, one per durable batch. Bytes of a frame
 * still being written wait in `pending`; lines already recovered from that torn frame at load are
 * skipped when the frame completes, so nothing is folded twice.
 */
export interface ZstdFollowState {
  pending: Uint8Array;
  skipText: number;
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
  const pending = bytes.subarray(result.committedCompressedBytes);
  return { log, zstd: summarize(result), follow: { pending: pending.slice(), skipText: result.recoveredBytes ?? 0 } };
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

/**
 * Folds bytes a writer appended to the file into the loaded log: plain text directly, zstd frame by
 * frame (an incomplete final frame waits for the rest of its bytes).
 */
export function extendLoadedFile(loaded: LoadedFile, appended: Uint8Array): ExtendResult {
  if (!loaded.follow) return loaded.log.extend(appended);
  const state = loaded.follow;
  const compressed = concatBytes([state.pending, appended]);
  const result = decodeZstdLog(compressed, { expectHeaderFrame: false });
  if (result.error) {
    // A damaged frame after the loaded ones is corruption of committed history, as at load.
    state.pending = new Uint8Array(0);
    loaded.log.refuseContainer('parse', result.error.message, result.error.rule, `appended ${result.error.detail}`);
    return { added: 0, diagnostics: loaded.log.diagnostics.filter((d) => d.rule === result.error!.rule) };
  }
  const completeText = result.frameEnds.length > 0 ? result.frameEnds[result.frameEnds.length - 1] : 0;
  const skip = Math.min(state.skipText, completeText);
  state.skipText = completeText > 0 ? 0 : state.skipText;
  state.pending = compressed.slice(result.committedCompressedBytes);
  return loaded.log.extend(result.text.subarray(skip, completeText));
}
