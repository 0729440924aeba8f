// A log already read into memory, as the safe save path (src/save/append-save.ts) takes it: the core's
// view plus the identity of exactly those bytes, which the save compares with the file before writing.
import type { LoadedFile } from '../core';
import type { EditableLog } from './append-save';
import { identityOf } from './file-identity';

export function editableFromBytes(loaded: LoadedFile, bytes: Uint8Array, mtimeMs: number): EditableLog {
  return { loaded, identity: identityOf(bytes, mtimeMs) };
}
