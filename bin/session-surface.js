#!/usr/bin/env node
// Launcher for the `session-surface` CLI: the bundle dist/cli.js holds everything it runs (built by
// `npm run build`, and shipped in the npm package).
//
// The bundle is compiled with a V8 code cache kept in the user's cache folder: a `check` spends tens of
// milliseconds compiling the bundle's functions as it first calls them, and the cache holds them
// compiled (bytecode, checked by V8 against this Node and its flags). The cache is keyed by a hash of
// the bundle, so a rebuilt or upgraded bundle never meets bytecode of another. Anything wrong with the
// cache (unreadable, stale, corrupt, no folder to write) only costs that speed-up.
//   SESSION_SURFACE_CACHE_DIR=DIR   where the cache lives;  SESSION_SURFACE_CODE_CACHE=0   no cache
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

const bundle = path.join(__dirname, '..', 'dist', 'cli.js');

function cacheFolder() {
  const chosen = process.env.SESSION_SURFACE_CACHE_DIR;
  if (chosen) return chosen;
  const home = os.homedir();
  if (process.platform === 'win32')
    return path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'session-surface', 'Cache');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'session-surface');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'session-surface');
}

/** Loads the bundle as require() would, through a code cache; returns its exports. */
function loadWithCodeCache(file) {
  const source = fs.readFileSync(file, 'utf8');
  const folder = cacheFolder();
  const key = createHash('sha256').update(`${process.version} ${process.arch}\0`).update(source).digest('hex').slice(0, 24);
  const cacheFile = path.join(folder, `cli-${key}.v8`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const compiled = script.runInThisContext();
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.loaded = true;
  compiled.call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written at exit, so that it holds the functions this run compiled, not only the bundle's top level.
    process.once('exit', () => writeCache(folder, cacheFile, script));
  }
  return loaded.exports;
}

function writeCache(folder, cacheFile, script) {
  try {
    fs.mkdirSync(folder, { recursive: true });
    // Caches of other bundles or Nodes are of no further use.
    for (const name of fs.readdirSync(folder)) if (/^cli-[0-9a-f]+\.v8$/.test(name)) fs.rmSync(path.join(folder, name), { force: true });
    // Renamed into place, so that a process starting meanwhile never reads half a cache.
    const partial = `${cacheFile}.${process.pid}.partial`;
    fs.writeFileSync(partial, script.createCachedData());
    fs.renameSync(partial, cacheFile);
  } catch {
    // No cache this time: the next run compiles again.
  }
}

(process.env.SESSION_SURFACE_CODE_CACHE === '0' ? require(bundle) : loadWithCodeCache(bundle)).main();
