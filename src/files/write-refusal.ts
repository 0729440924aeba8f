// How the write layer says no: one error type whose message is a whole sentence naming the file, what
// was being done and, for a failing system call, the OS error in words. The CLI prints it as a refusal
// (exit 1), the editor shows it; neither ever calls it an internal error.
import { errorCode } from './file-access';

export class WriteRefused extends Error {
  constructor(
    message: string,
    /** A short rule id for the JSON output ("write.lock-held", "write.io"). */
    readonly rule: string,
  ) {
    super(message);
    this.name = 'WriteRefused';
  }
}

const MEANINGS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file would grow past the file-size limit',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted: the file or its folder has the append-only or immutable attribute, or the file system refuses it',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error of the device',
  ENOENT: 'no such file or folder',
  EEXIST: 'a file of that name exists already',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EBUSY: 'the file is busy',
  EMFILE: 'too many open files',
  EINTR: 'interrupted by a signal',
};

/** "ENOSPC (no space left on the device)". */
export function osError(error: unknown): string {
  const code = errorCode(error);
  const meaning = MEANINGS[code];
  return meaning ? `${code} (${meaning})` : code;
}

/** A failed system call as a refusal: "cannot <action> <path>: <code> (<meaning>)<after>". */
export function ioRefusal(action: string, path: string, error: unknown, after = ''): WriteRefused {
  if (error instanceof WriteRefused) return error;
  return new WriteRefused(`cannot ${action} ${path}: ${osError(error)}${after}`, 'write.io');
}

/** Runs one system call; a failure becomes a refusal that names it. */
export function io<T>(action: string, path: string, call: () => T, after = ''): T {
  try {
    return call();
  } catch (error) {
    throw ioRefusal(action, path, error, after);
  }
}
