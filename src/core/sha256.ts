// SHA-256 over UTF-8 text (the derived-message digest), from @noble/hashes: pure JavaScript, so the
// core stays free of platform modules and runs outside Node too.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}
