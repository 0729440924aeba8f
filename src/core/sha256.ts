// SHA-256 over UTF-8 text (the derived-message digest), from @noble/hashes: pure JavaScript, so the
// core stays free of platform modules and runs outside Node too.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { writeJson } from './json-text';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}

/** SHA-256 fed piece by piece (UTF-8 text or bytes), for text too large to hold as one string. */
export interface Sha256Stream {
  update(chunk: string | Uint8Array): void;
  hex(): string;
}

export function sha256Stream(): Sha256Stream {
  const hash = sha256.create();
  const encoder = new TextEncoder();
  return {
    update(chunk) {
      hash.update(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    },
    hex: () => bytesToHex(hash.digest()),
  };
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
