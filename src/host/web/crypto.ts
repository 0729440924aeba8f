// `node:crypto` in the browser extension host: random bytes from the Web Crypto API (for webview nonces).
export function randomBytes(size: number): { toString(encoding: 'base64' | 'hex'): string } {
  const bytes = new Uint8Array(size);
  globalThis.crypto.getRandomValues(bytes);
  return {
    toString(encoding) {
      if (encoding === 'hex') return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      let binary = '';
      for (const b of bytes) binary += String.fromCharCode(b);
      return btoa(binary);
    },
  };
}

export function randomUUID(): string {
  return globalThis.crypto.randomUUID();
}
