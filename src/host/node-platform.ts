// The desktop extension host's platform (Node, or VS Code's Electron): local files through Node, the
// write layer, fs.watch, and Node's own zstd codec and UTF-8 decoder.
import { watch } from 'node:fs';
import { nodeWriteLayer } from '../files/write-layer';
import { zlibZstd } from '../node/zlib-zstd';
import { bufferUtf8Slicer } from '../node/buffer-utf8';
import type { HostPlatform } from './platform';

export function nodePlatform(): HostPlatform {
  return {
    local: {
      writes: nodeWriteLayer,
      watch(path, onChange) {
        const watcher = watch(path, { persistent: false }, onChange);
        return { close: () => watcher.close(), onError: (listener) => void watcher.on('error', listener) };
      },
    },
    zstdCodec: zlibZstd(),
    utf8Slicer: bufferUtf8Slicer(),
  };
}
