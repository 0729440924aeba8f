// Node's Buffer as the core's UTF-8 decoder of log lines: a Buffer decodes a line faster than
// TextDecoder, with the same result (invalid sequences replaced, a BOM kept). The CLI and the extension
// host hand it to the core's load functions.
import type { Utf8Slicer } from '../core';

/** The Buffer-based decoder, or undefined where there is no Buffer (VS Code for the Web): the core then uses TextDecoder. */
export function bufferUtf8Slicer(): Utf8Slicer | undefined {
  if (typeof Buffer !== 'function') return undefined;
  return (bytes) => {
    // One Buffer over the same memory for the whole store, not one per line.
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return (start, end) => buffer.toString('utf8', start, end);
  };
}
