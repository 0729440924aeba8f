// `check --jobs N`: files are checked on N worker threads, each started from the CLI bundle itself.
// Files are handed out one at a time as workers finish, so a few large logs cannot leave the other
// workers idle; results come back as plain data (FileVerdict) in whatever order they finish.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { ReadLimits } from '../core/api';
import { checkFile, type FileVerdict } from './check-file';

const ROLE = 'session-surface-check-worker';

interface Job {
  index: number;
  file: string;
  limits: Partial<ReadLimits>;
}

interface Done {
  index: number;
  verdict: FileVerdict;
}

/** True inside a worker thread started by `checkInWorkers`. */
export function isCheckWorker(): boolean {
  return !isMainThread && (workerData as { role?: string } | null)?.role === ROLE;
}

/** The worker's loop: check each file it is sent and post the verdict back. */
export function serveCheckWorker(): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', (job: Job) => {
    const done: Done = { index: job.index, verdict: checkFile(job.file, job.limits) };
    port.postMessage(done);
  });
}

/** Checks `files` on `jobs` workers, reporting each verdict as it arrives. */
export function checkInWorkers(
  files: readonly string[],
  jobs: number,
  workerScript: string,
  limits: Partial<ReadLimits>,
  onVerdict: (index: number, verdict: FileVerdict) => void,
): Promise<void> {
  return new Promise((resolve) => {
    let next = 0;
    let remaining = files.length;
    let running = 0;
    if (remaining === 0) return resolve();

    const finish = (index: number, verdict: FileVerdict) => {
      onVerdict(index, verdict);
      remaining -= 1;
      if (remaining === 0) resolve();
    };

    const start = () => {
      const worker = new Worker(workerScript, { workerData: { role: ROLE } });
      running += 1;
      let current: Job | undefined;
      const feed = () => {
        if (next < files.length) {
          current = { index: next, file: files[next], limits };
          next += 1;
          worker.postMessage(current);
        } else {
          current = undefined;
          void worker.terminate();
        }
      };
      worker.on('message', (done: Done) => {
        current = undefined;
        finish(done.index, done.verdict);
        feed();
      });
      // A worker that dies (out of memory, a crash in the engine) costs only the file it held: that
      // file gets a verdict saying so and a fresh worker takes over the rest of the queue.
      worker.on('error', (error) => {
        if (current) {
          const lost = current;
          current = undefined;
          finish(lost.index, {
            file: lost.file,
            status: 'failed',
            error: `internal error: ${error.message.split('\n', 1)[0]}`,
            problems: [],
          });
        }
      });
      worker.on('exit', () => {
        running -= 1;
        if (current) {
          const lost = current;
          current = undefined;
          finish(lost.index, { file: lost.file, status: 'failed', error: 'internal error: the worker checking it stopped', problems: [] });
        }
        if (next < files.length && running < jobs) start();
      });
      feed();
    };

    for (let i = 0; i < Math.min(jobs, files.length); i++) start();
  });
}
