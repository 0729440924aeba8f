// Loads a session file's bytes, plain or zstd (detected by the frame magic, not by the name).
import type { ExtendResult, LoadOptions } from '../api';
import type { Diagnostic } from '../types';
import { SessionLog, isSessionLog } from './session-log';
import { decodeZstdLog } from '../zstd/decode';
import type { ZstdDecodeOptions, ZstdDecodeResult, ZstdLogError } from '../zstd/decode-types';
import { isZstd, mayStartFrame } from '../zstd/frames';
import { concatBytes } from '../zstd/encode';
import { asBytes, badInput, plainView, readField, safeLoadOptions } from '../api-guard';
import { say } from '../words';

/** What the zstd container held, for the views and `inspect`. */
export interface ZstdSummary {
  compressedBytes: number;
  frames: number;
  committedCompressedBytes: number;
  /** Text bytes of the complete frames (the recovered lines of a torn frame follow them). */
  committedTextBytes: number;
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
  /** True until the header frame is complete: `pending` then holds the whole file so far. */
  awaitingHeader?: boolean;
  /**
   * True while the file is too short to tell plain from zstd (empty, or 1–3 bytes of a frame's magic):
   * `pending` holds its bytes, and the log has read none of them until the first appended bytes decide.
   */
  undecided?: boolean;
  /** The codec and limits the file was loaded with. */
  decode?: Pick<ZstdDecodeOptions, 'codec' | 'limits'>;
}

function summarize(result: ZstdDecodeResult): ZstdSummary {
  const summary: ZstdSummary = {
    compressedBytes: result.compressedBytes,
    frames: result.frames,
    committedCompressedBytes: result.committedCompressedBytes,
    committedTextBytes: result.frameEnds.length > 0 ? result.frameEnds[result.frameEnds.length - 1] : 0,
    backend: result.backend,
  };
  if (result.tornFrameStart !== undefined) summary.tornFrameStart = result.tornFrameStart;
  if (result.recoveredBytes !== undefined) summary.recoveredBytes = result.recoveredBytes;
  if (result.error) summary.error = `${result.error.message} (${result.error.detail})`;
  return summary;
}

/** 1-based line of the text where `offset` starts. */
function lineAt(text: Uint8Array, offset: number): number {
  let line = 1;
  for (let p = text.indexOf(0x0a); p !== -1 && p < offset; p = text.indexOf(0x0a, p + 1)) line++;
  return line;
}

/** The line a container problem is pinned to: where the failing frame's text would have started. */
function containerRefusal(log: SessionLog, error: ZstdLogError, text: Uint8Array, headerRead: boolean, linesBefore = 0, prefix = ''): void {
  const stage = !headerRead || error.rule === 'zstd.header-less' || error.rule === 'zstd.header-frame' ? 'header' : 'parse';
  log.refuseContainer(
    stage,
    error.message,
    error.rule,
    `${prefix}${error.detail}`,
    headerRead ? linesBefore + lineAt(text, text.length) : 1,
  );
}

/** Remarks on a torn final frame: what dsh keeps, and what its writable open cuts off. */
function tornFrameRemarks(log: SessionLog, result: ZstdDecodeResult): void {
  if (result.tornFrameStart === undefined) return;
  const frame = (result.tornFrameIndex ?? 0) + 1;
  const at = result.tornFrameStart;
  const committed = result.frameEnds.length > 0 ? result.frameEnds[result.frameEnds.length - 1] : 0;
  const line = lineAt(result.text, committed);
  const dropped = result.compressedBytes - at;
  let d: Diagnostic;
  if (result.tornFrameKind === 'skippable') {
    d = {
      severity: 'warning',
      rule: 'zstd.torn-frame',
      line,
      offset: committed,
      ...say(
        'frame {0} at compressed offset {1} is a skippable frame declaring {2} bytes, more than the {3} left in the file: dsh reads it as a torn final frame, keeps nothing after it, and its writable open truncates the file at byte {1}, dropping whatever frames those {4} bytes hold',
        frame,
        at,
        result.tornFrameDeclares ?? '?',
        dropped - 8,
        dropped,
      ),
    };
  } else {
    const recovered = result.recoveredBytes ?? 0;
    const lines = recovered > 0 ? lineAt(result.text, result.text.length) - line : 0;
    d = {
      severity: 'info',
      rule: 'zstd.torn-frame',
      line,
      offset: committed,
      ...(lines === 1
        ? say(
            "frame {0} at compressed offset {1} is incomplete (the file ends inside it, {2} bytes): {3} complete line recovered from it; dsh's writable open truncates the file at byte {1} and appends them again with the closers",
            frame,
            at,
            dropped,
            lines,
          )
        : say(
            "frame {0} at compressed offset {1} is incomplete (the file ends inside it, {2} bytes): {3} complete lines recovered from it; dsh's writable open truncates the file at byte {1} and appends them again with the closers",
            frame,
            at,
            dropped,
            lines,
          )),
    };
  }
  log.reportContainer(d);
}

/**
 * Where a load gets a file's bytes. `read` is called once. `release`, when given, is called once the
 * bytes are no longer needed — for a zstd file, as soon as they are decoded (a plain file's bytes are
 * its text, so they are never released) — so a caller that can free them then (the CLI reads a zstd
 * file into a buffer it can shrink) does not hold the compressed and the decoded text while the lines
 * are read.
 */
export interface FileSource {
  read(): Uint8Array;
  release?(): void;
  /** Makes the buffer a zstd file's text is decoded into (see ZstdDecodeOptions.allocate). */
  allocate?(length: number): Uint8Array;
}

/**
 * Decodes the file (a zstd one into its text) and sets up the log, without reading its lines. Only this
 * frame holds the bytes: once it returns, a zstd file's compressed bytes are garbage unless the caller
 * kept them.
 */
function prepare(source: FileSource, options: LoadOptions): LoadedFile {
  const input = source.read();
  const bytes = asBytes(input);
  if (!bytes) {
    const log = new SessionLog(new Uint8Array(0), options);
    log.refuseInput(badInput('loading a session file needs its bytes (a Uint8Array)', input));
    return { log };
  }
  // A plain file keeps its own object (a Buffer searches faster; the store checks it); the decoder reads a plain view.
  const plain = plainView(bytes);
  const decode = { codec: options.zstdCodec, limits: options.limits };
  if (mayStartFrame(plain))
    return {
      log: new SessionLog(new Uint8Array(0), options),
      follow: { pending: copyFrom(plain, 0), skipText: 0, undecided: true, decode },
    };
  if (!isZstd(plain)) return { log: new SessionLog(bytes, options) };
  const allocate = source.allocate ? (length: number) => source.allocate!(length) : undefined;
  const result = decodeZstdLog(plain, { ...decode, allocate });
  const error = result.error;
  const follow: ZstdFollowState = { pending: new Uint8Array(0), skipText: result.recoveredBytes ?? 0, decode };
  // The header frame may still be being written: then the log waits for it, as a plain log waits for its first line.
  const awaitingHeader = error?.rule === 'zstd.header-less' && result.frames === 0 && endsInsideFirstFrame(result);
  follow.pending = copyFrom(plain, awaitingHeader ? 0 : result.committedCompressedBytes);
  // Released before the log's own tables are allocated, which may start a collection that would keep them.
  source.release?.();
  const log = new SessionLog(result.text, options);
  if (awaitingHeader) {
    log.awaitHeader(error!.message, error!.rule);
    follow.awaitingHeader = true;
    return { log, zstd: summarize(result), follow };
  }
  if (error) containerRefusal(log, error, result.text, result.frames > 0);
  else tornFrameRemarks(log, result);
  return { log, zstd: summarize(result), follow };
}

/**
 * A copy of `bytes` from `start` on. Not `bytes.slice`: on a Node Buffer that is a view, which would
 * keep the whole compressed file alive for as long as the log is followed.
 */
function copyFrom(bytes: Uint8Array, start: number): Uint8Array {
  return new Uint8Array(bytes.subarray(start));
}

function endsInsideFirstFrame(result: ZstdDecodeResult): boolean {
  return result.error?.detail.endsWith('the input ends inside the first frame') === true || result.compressedBytes === 0;
}

/** Synchronous load of a whole file. Never throws on bad input. */
export function loadSessionFile(bytes: Uint8Array, options: LoadOptions = {}): LoadedFile {
  return loadSessionFileFrom({ read: () => bytes }, options);
}

/** The same, with the bytes from `source` (see FileSource: a zstd file's bytes can be freed once decoded). */
export function loadSessionFileFrom(source: FileSource, options: LoadOptions = {}): LoadedFile {
  const safe = safeLoadOptions(options);
  const loaded = prepare(source, safe);
  loaded.log.ingest(Infinity, safe.onProgress);
  return loaded;
}

/** The same in slices, yielding between them so a host can show progress and stay responsive. */
export async function loadSessionFileAsync(bytes: Uint8Array, options: LoadOptions = {}): Promise<LoadedFile> {
  const safe = safeLoadOptions(options);
  const loaded = prepare({ read: () => bytes }, safe);
  while (!loaded.log.ingest(50, safe.onProgress)) await new Promise((resolve) => setTimeout(resolve, 0));
  return loaded;
}

/**
 * Folds bytes a writer appended to the file into the loaded log: plain text directly, zstd frame by
 * frame (an incomplete final frame waits for the rest of its bytes).
 */
export function extendLoadedFile(loaded: LoadedFile, input: Uint8Array): ExtendResult {
  if (!isSessionLog(readField(loaded, 'log'))) return { added: 0, diagnostics: [badInput('extendLoadedFile needs a loaded file', loaded)] };
  const given = asBytes(input);
  if (!given) return { added: 0, diagnostics: [badInput('extendLoadedFile needs the appended bytes (a Uint8Array)', input)] };
  const appended = plainView(given);
  if (!loaded.follow) return loaded.log.extend(appended);
  const state = loaded.follow;
  const compressed = concatBytes([state.pending, appended]);
  if (state.undecided) {
    if (mayStartFrame(compressed)) {
      state.pending = compressed;
      return { added: 0, diagnostics: [] };
    }
    state.undecided = false;
    if (!isZstd(compressed)) {
      // A plain log after all: the bytes held back are its first.
      loaded.follow = undefined;
      return loaded.log.extend(compressed);
    }
    // A zstd log written from empty: followed from its first frame, as a load of the whole file would read it.
    state.awaitingHeader = true;
    loaded.zstd = {
      compressedBytes: 0,
      frames: 0,
      committedCompressedBytes: 0,
      committedTextBytes: 0,
      backend: state.decode?.codec ? 'zlib' : 'fzstd',
    };
  }
  const textBefore = loaded.log.scan.fileBytes;
  const result = decodeZstdLog(compressed, { ...state.decode, expectHeaderFrame: state.awaitingHeader === true, textBefore });
  if (state.awaitingHeader) {
    if (result.error && endsInsideFirstFrame(result)) {
      state.pending = compressed;
      loaded.log.awaitHeader(result.error.message, result.error.rule);
      return { added: 0, diagnostics: [] };
    }
    state.awaitingHeader = false;
  }
  if (result.error) {
    // A damaged frame after the loaded ones is corruption of committed history, as at load.
    state.pending = new Uint8Array(0);
    const before = loaded.log.diagnostics.length;
    const lastLine = loaded.log.place(loaded.log.eventCount - 1)?.line ?? 1;
    containerRefusal(loaded.log, result.error, result.text, textBefore > 0 || result.frames > 0, lastLine, 'appended ');
    return { added: 0, diagnostics: loaded.log.diagnostics.slice(before).filter((d) => d.rule === result.error!.rule) };
  }
  const completeText = result.frameEnds.length > 0 ? result.frameEnds[result.frameEnds.length - 1] : 0;
  const skip = Math.min(state.skipText, completeText);
  state.skipText = completeText > 0 ? 0 : state.skipText;
  state.pending = compressed.slice(result.committedCompressedBytes);
  return loaded.log.extend(result.text.subarray(skip, completeText));
}
