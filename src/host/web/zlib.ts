// `node:zlib` in the browser extension host: there is no native Zstandard codec, so the core decodes
// zstd logs with its pure-JavaScript decoder.
export {};
