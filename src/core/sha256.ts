// SHA-256 over UTF-8 text (the derived-message digest), from @noble/hashes: pure JavaScript, so the
// core stays free of platform modules and runs outside Node too.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { writeJson } from './json-text';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}

/**
 * SHA-256 of a value's JSON text (`writeJson`'s, which is JSON.stringify's for plain JSON), hashed as it is
 * written: the text of a whole log's messages may be longer than the engine's longest string.
 */
export function sha256HexOfJson(value: unknown): string {
  const hash = sha256.create();
  const encoder = new TextEncoder();
  writeJson(value, (chunk) => hash.update(encoder.encode(chunk)));
  return bytesToHex(hash.digest());
}
