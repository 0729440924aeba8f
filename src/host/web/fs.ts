// `node:fs` in the browser extension host: there is no local file system to watch, so watching fails
// and the file follower polls through vscode.workspace.fs instead.
export type FSWatcher = { close(): void; on(event: string, listener: () => void): FSWatcher };

export function watch(): FSWatcher {
  throw new Error('file watching is not available in the browser extension host');
}
