// Sentences the write layer adds to what a failed write left behind.

const TORN = 'readers ignore a torn tail, and dsh cuts it off when it next opens the log for writing';

/** What a write that stopped after `written` bytes of `text` (or of its zstd frame) left behind, in words. */
export function partialWriteEffect(zstd: boolean, text: Uint8Array, written: number): string {
  if (written === 0) return 'Nothing of ours was written.';
  if (zstd) return `The ${written} bytes written are an incomplete frame: ${TORN}.`;
  let complete = 0;
  for (let i = 0; i < Math.min(written, text.length); i++) if (text[i] === 0x0a) complete++;
  if (complete === 0) return `The ${written} bytes written are a torn tail: ${TORN}.`;
  return (
    `The first ${complete} line(s) were written whole and are now events of the log (check it before saving again); ` +
    `the rest is a torn tail: ${TORN}.`
  );
}
