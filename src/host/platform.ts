// What the extension host gets from the runtime it runs in, handed in by the composition root: the
// desktop entry (extension.ts, Node or Electron) installs local files, file watching, the write layer and
// Node's zstd codec; the browser entry (extension-web.ts) installs nothing, so every file is read through
// vscode.workspace.fs, followed by polling, decoded by the core's own zstd decoder, and never written.
// Host modules import only types from the Node-side layers, so the browser bundle contains no Node code.
import type { NativeZstd, Utf8Slicer } from '../core';
import type { WriteLayer } from '../files/write-layer';

export interface HostPlatform {
  /** Local (`file:`) logs: read, followed and written in place. */
  local?: {
    writes: WriteLayer;
    /** Watches a file; the callback fires on any change. Throws where watching is not possible. */
    watch(path: string, onChange: () => void): { close(): void; onError(listener: () => void): void };
  };
  zstdCodec?: NativeZstd;
  utf8Slicer?: Utf8Slicer;
}

let installed: HostPlatform = {};

export function installPlatform(platform: HostPlatform): void {
  installed = platform;
}

export function hostPlatform(): HostPlatform {
  return installed;
}
