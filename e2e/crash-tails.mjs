// Crash tails for the end-to-end tests, cut from a real dsh log the way a crash leaves them: after an
// event of an open turn (with or without the tool/call that records the call as started), part way
// through a line, or part way through the final zstd frame. Plain ESM, no build step.

/** Lines as a JSONL text, each with its newline. */
export const text = (lines) => lines.map((l) => `${l}\n`).join('');

/**
 * Cuts the log after its first tool/call (recorded) or after the assistant/message asking for it;
 * `next` is the first line left out (to tear part of it on).
 */
export function cutAtFirstToolCall(lines, recorded) {
  for (let i = 1; i < lines.length; i++) {
    const event = JSON.parse(lines[i]);
    if (event.type !== 'tool/call') continue;
    let ask = i - 1;
    while (ask > 0 && !JSON.stringify(JSON.parse(lines[ask]).data?.message?.content ?? '').includes(`"id":"${event.data.callId}"`)) ask--;
    const end = recorded ? i + 1 : ask + 1;
    return { lines: lines.slice(0, end), next: lines[end], callId: event.data.callId };
  }
  throw new Error('no tool/call');
}

/** One zstd frame of stored blocks: valid Zstandard any decoder reads, made without a compressor. */
export function storedZstdFrame(content) {
  const bytes = new TextEncoder().encode(content);
  const parts = [
    Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0xa0 /* single segment, 4-byte size */),
    new Uint8Array(new Uint32Array([bytes.length]).buffer),
  ];
  for (let at = 0; at === 0 || at < bytes.length; at += 65536) {
    const size = Math.min(65536, bytes.length - at);
    const header = (size << 3) | (at + size >= bytes.length ? 1 : 0);
    parts.push(Uint8Array.of(header & 0xff, (header >> 8) & 0xff, header >> 16), bytes.subarray(at, at + size));
  }
  return Buffer.concat(parts);
}

/** A dsh-style zstd log: the header line in its own frame, then the rest in one frame. */
export function zstdLog(lines) {
  return Buffer.concat([storedZstdFrame(`${lines[0]}\n`), storedZstdFrame(text(lines.slice(1)))]);
}

/** The same, followed by a frame holding `next` cut in its middle (a write that stopped part way). */
export function zstdLogWithTornFrame(lines, next) {
  const torn = storedZstdFrame(`${next}\n`);
  return Buffer.concat([zstdLog(lines), torn.subarray(0, Math.floor(torn.length / 2))]);
}

/** On a loaded machine the first navigation can exceed playwright's 30 s: try a fresh page again. */
export async function openPageRetrying(suite, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await suite.openPage()).page;
    } catch (error) {
      if (attempt === attempts) throw error;
      console.log(`# workbench did not load (${error.message.split('\n')[0]}); trying again`);
    }
  }
}
