// SHA-256 over UTF-8 text (the derived-message digest), from @noble/hashes: pure JavaScript, so the
// core stays free of platform modules and runs outside Node too.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

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
