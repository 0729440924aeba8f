// Installs the project's npm dependencies when they are missing or older than the lockfile, so that
// `npm test` and `npm start` work on a fresh clone. Uses only Node built-ins.
import { existsSync, lstatSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export function ensureDeps(root) {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh) return;
  // A node_modules that is a link belongs to another checkout (a worktree sharing one install): `npm ci`
  // here would empty the shared folder for every checkout using it, so the owner of the install updates it.
  const modules = join(root, 'node_modules');
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    console.log('== npm dependencies look older than package-lock.json, but node_modules is a shared link: not reinstalling here');
    return;
  }
  console.log('== installing npm dependencies (npm ci)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm ci failed');
    process.exit(result.status ?? 1);
  }
}
