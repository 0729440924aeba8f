// `node:fs/promises` in the browser extension host. fileAccess.ts only uses it for `file:` URIs, which a
// web extension host never reads directly; reaching it is a bug, reported as a clear error.
function unavailable(): never {
  throw new Error('local files are read through vscode.workspace.fs in the browser extension host');
}

export const stat = unavailable;
export const open = unavailable;
