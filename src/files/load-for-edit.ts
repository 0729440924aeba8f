// Reads a session log from disk for editing (CLI and tests): the core's view of it plus the identity
// of the bytes read (with the file's inode), which a save compares with the file before it appends.
import { loadSessionFile, type LoadOptions } from '../core';
import type { FileAccess } from './file-access';
import { identityOf } from './file-identity';
import type { EditableLog } from './append-save';
import { nodeFiles } from './node-files';

export async function loadForEdit(
  path: string,
  options: Pick<LoadOptions, 'limits'> = {},
  files: FileAccess = nodeFiles,
): Promise<EditableLog> {
  const { bytes, stat } = await files.readWhole(path);
  return { loaded: loadSessionFile(bytes, { fileName: path, limits: options.limits }), identity: identityOf(bytes, stat.mtimeMs, stat.id) };
}
