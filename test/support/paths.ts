// Where the repository and the shared corpus are, found from the running file so the same code
// works from test/support/*.ts (type-checked) and from the bundled out/test/**/*.js (run by mocha),
// which sit at different depths below the repository root.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

let cachedRoot: string | undefined;

/** The directory holding this project's package.json (walking up from the running file). */
export function repoRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = __dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, 'utf8')).name === 'session-surface-studio') return (cachedRoot = dir);
      } catch {
        // An unreadable package.json belongs to something else; keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the session-surface-studio package.json above ${__dirname}`);
    dir = parent;
  }
}

/** The shared corpus: $SHARED_DIR (relative to the repository root) or the sibling ../shared. */
export function sharedDir(): string {
  const configured = process.env.SHARED_DIR;
  return configured ? resolve(repoRoot(), configured) : resolve(repoRoot(), '..', 'shared');
}

/** True when the shared corpus is present (a fresh clone of this repository alone has no ../shared). */
export function hasShared(): boolean {
  return existsSync(join(sharedDir(), 'conformance'));
}
