// What this generation's checks need beyond the format layer's JSON helpers.

/**
 * dsh checks `cwd` with Node's `path.isAbsolute` on the machine it runs on; the conformance verdicts
 * were made on POSIX, where a path is absolute when it starts with `/`.
 */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/');
}
