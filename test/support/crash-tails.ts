// Crash tails cut from a log that dsh loads, the way a crash leaves them: the file ends after an
// event of an open turn (with or without the tool/call that records a call as started), part way
// through a line, or part way through the final zstd frame.
import { concatBytes, encodeRawZstdFrame, encodeZstdFrame } from '../../src/core/zstd/encode';

const enc = new TextEncoder();

export interface CrashCut {
  /** Lines kept whole (index 0 is the header). */
  lines: string[];
  /** How many lines of the original were kept. */
  kept: number;
  /** The call the cut leaves pending, and whether its tool/call is kept. */
  callId: string;
  recorded: boolean;
}

/**
 * Cuts after the first tool/call of the log (recorded: TOOL_OUTCOME_UNKNOWN) or after the
 * assistant/message that asked for it (not recorded: TOOL_NOT_STARTED). Undefined when the log has
 * no tool/call answered later (nothing to cut).
 */
export function cutAtFirstToolCall(lines: readonly string[], recorded: boolean): CrashCut | undefined {
  for (let i = 1; i < lines.length; i++) {
    const event = JSON.parse(lines[i]);
    if (event.type !== 'tool/call') continue;
    const callId = event.data.callId as string;
    let ask = i - 1;
    while (ask > 0 && !askedFor(JSON.parse(lines[ask]), callId)) ask--;
    if (ask === 0) continue;
    const kept = recorded ? i + 1 : ask + 1;
    return { lines: lines.slice(0, kept), kept, callId, recorded };
  }
  return undefined;
}

function askedFor(event: any, callId: string): boolean {
  return (
    event.type === 'assistant/message' &&
    Array.isArray(event.data?.message?.content) &&
    event.data.message.content.some((b: any) => b?.type === 'tool-call' && b.id === callId)
  );
}

export function plainBytes(lines: readonly string[], tornTail = ''): Uint8Array {
  return enc.encode(lines.map((l) => `${l}\n`).join('') + tornTail);
}

/** Half of the next line, as a torn tail. */
export function halfLine(line: string): string {
  return line.slice(0, Math.max(1, Math.floor(line.length / 2)));
}

/** A dsh zstd log: the header frame, then one frame per batch of `perFrame` lines. */
export function zstdBytes(lines: readonly string[], perFrame = 4): Uint8Array {
  const frames = [encodeZstdFrame(enc.encode(`${lines[0]}\n`))];
  for (let i = 1; i < lines.length; i += perFrame)
    frames.push(
      encodeZstdFrame(
        enc.encode(
          lines
            .slice(i, i + perFrame)
            .map((l) => `${l}\n`)
            .join(''),
        ),
      ),
    );
  return concatBytes(frames);
}

/**
 * A zstd log whose final frame was torn: `lines` in complete frames, then a frame holding `whole`
 * lines and then `partial`, written in stored blocks of 64 bytes and cut inside the block after the
 * one where `whole` ends. The complete lines of `whole` are recoverable; `partial` is torn.
 */
export function zstdWithTornFrame(
  lines: readonly string[],
  whole: readonly string[],
  partial: string,
): { bytes: Uint8Array; tornFrameStart: number } {
  const head = zstdBytes(lines);
  const wholeText = whole.map((l) => `${l}\n`).join('');
  const content = enc.encode(wholeText + `${partial}\n`);
  const block = 64;
  const frame = encodeRawZstdFrame(content, { blockSize: block });
  const blocks = Math.ceil(content.length / block);
  const headerSize = frame.length - (blocks * 3 + content.length + 4);
  // Content position to stop at: inside the block after the one where `whole` ends.
  const wholeBytes = enc.encode(wholeText).length;
  const stopAt = Math.min(content.length - 1, Math.ceil((wholeBytes + 1) / block) * block + 10);
  const cut = headerSize + Math.floor(stopAt / block) * (block + 3) + 3 + (stopAt % block);
  return { bytes: concatBytes([head, frame.subarray(0, cut)]), tornFrameStart: head.length };
}
