// `node:fs` in the browser extension host: there is no local file system to watch, so watching fails
// and the file follower polls through vscode.workspace.fs instead.
export type FSWatcher = { close(): void; on(event: string, listener: () => void): FSWatcher };

export function watch(): FSWatcher {
  throw new Error('file watching is not available in the browser extension host');
}

// Writing a log (saving authored edits, applying a crash repair, removing a torn tail) needs an
// append-mode file handle on a local disk; in the browser host these refuse with a clear error.
function noLocalFiles(): never {
  throw new Error('this needs a local file system, which the browser extension host does not have');
}
export const constants = { O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_APPEND: 1024, O_NONBLOCK: 2048, O_CREAT: 64, O_EXCL: 128 };
export const promises = { open: noLocalFiles, stat: noLocalFiles, readFile: noLocalFiles };
export const fstatSync = noLocalFiles;
export const readSync = noLocalFiles;
export const writeSync = noLocalFiles;
export const closeSync = noLocalFiles;
export const copyFileSync = noLocalFiles;
export const existsSync = noLocalFiles;
export const renameSync = noLocalFiles;
export const rmSync = noLocalFiles;
export const fsyncSync = noLocalFiles;
export const ftruncateSync = noLocalFiles;
export const openSync = noLocalFiles;
export const readFileSync = noLocalFiles;
export const statSync = noLocalFiles;
