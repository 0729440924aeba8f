// dsh's session lock from Node, which has no flock(2) of its own: a short-lived helper process takes
// the lock on a descriptor it inherits from us. A flock belongs to the open file, not to a process or a
// descriptor number, so once the helper has taken it and exited, the lock stays with our descriptor
// until we close it (or die: the kernel then releases it, as it does for a crashed dsh). No native
// module, so the same code runs in the CLI on Node 20, in code-server's Node and in VS Code's Electron.
//
// The helper is util-linux's flock(1) (`flock -n -x -E 75 FD`, Linux), else perl's flock (macOS and
// most Unix systems ship perl). Windows has no flock at all: dsh holds a named kernel semaphore there,
// which needs a native call, so the lock is reported unavailable with what is missing.
import { spawn } from 'node:child_process';
import type { LockAttempt } from './file-access';

/** The exit status both helpers use when another open file holds the lock. */
const BUSY = 75;
/** The descriptor number the lock file has in the helper. */
const CHILD_FD = 3;
const HELPER_TIMEOUT_MS = 10_000;

interface Helper {
  name: string;
  command: string;
  args: string[];
}

const HELPERS: Helper[] = [
  { name: 'flock(1)', command: 'flock', args: ['--nonblock', '--exclusive', '--conflict-exit-code', String(BUSY), String(CHILD_FD)] },
  {
    name: 'perl',
    command: 'perl',
    args: [
      '-e',
      // Opens the inherited descriptor (without a new open file), then flock(LOCK_EX | LOCK_NB).
      `use Fcntl qw(:flock); open(my $f, "<&=", ${CHILD_FD}) or exit 71; ` +
        `exit(flock($f, LOCK_EX | LOCK_NB) ? 0 : ($!{EWOULDBLOCK} ? ${BUSY} : 71));`,
    ],
  },
];

type HelperResult = LockAttempt | { kind: 'missing' } | { kind: 'failed'; why: string };

function runHelper(helper: Helper, fd: number): Promise<HelperResult> {
  return new Promise((resolve) => {
    let stderr = '';
    let child;
    try {
      child = spawn(helper.command, helper.args, { stdio: ['ignore', 'ignore', 'pipe', fd], timeout: HELPER_TIMEOUT_MS });
    } catch (error) {
      resolve({ kind: 'failed', why: `${helper.name} could not be started (${(error as Error).message})` });
      return;
    }
    child.stderr?.on('data', (d) => (stderr += d));
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'failed', why: `${helper.name}: ${error.code ?? error.message}` }),
    );
    child.once('close', (code, signal) => {
      if (code === 0) resolve({ kind: 'locked' });
      else if (code === BUSY) resolve({ kind: 'busy' });
      else
        resolve({
          kind: 'failed',
          why: `${helper.name} could not lock it (${signal ? `killed by ${signal}` : `exit ${code}`}${stderr.trim() ? `: ${stderr.trim()}` : ''})`,
        });
    });
  });
}

/** flock(fd, LOCK_EX | LOCK_NB) through the first helper this system has. */
export async function flockWithoutWaiting(fd: number): Promise<LockAttempt> {
  if (process.platform === 'win32')
    return {
      kind: 'unavailable',
      why: 'on Windows dsh locks a session with a named kernel semaphore, which this tool cannot take without a native module',
    };
  const failures: string[] = [];
  for (const helper of HELPERS) {
    const result = await runHelper(helper, fd);
    if (result.kind === 'missing') continue;
    if (result.kind === 'failed') {
      failures.push(result.why);
      continue;
    }
    return result;
  }
  return {
    kind: 'unavailable',
    why: failures.length
      ? failures.join('; ')
      : 'Node cannot call flock(2) itself, and neither flock(1) (util-linux) nor perl is on the PATH to take it',
  };
}
