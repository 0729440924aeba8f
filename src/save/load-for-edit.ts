// Reads a session log from disk for editing (CLI and tests): the core's view of it plus the identity
// of the bytes read, which a save compares with the file before it appends anything.
import { promises as fsp } from 'node:fs';
import { loadSessionFile, type LoadOptions } from '../core';
import { identityOf } from '../files/file-identity';
import type { EditableLog } from './append-save';

export async function loadForEdit(path: string, options: Pick<LoadOptions, 'limits'> = {}): Promise<EditableLog> {
  const handle = await fsp.open(path, 'r');
  try {
    const stat = await handle.stat();
    const bytes = new Uint8Array(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const read = bytes.subarray(0, filled);
    return { loaded: loadSessionFile(read, { fileName: path, limits: options.limits }), identity: identityOf(read, stat.mtimeMs) };
  } finally {
    await handle.close();
  }
}
