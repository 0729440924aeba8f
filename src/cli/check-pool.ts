// `check --jobs N`: files are checked on N threads — this one and N - 1 worker threads, each started
// from the CLI bundle itself (every thread warms its own JIT, so the main thread, idle otherwise, does
// its share instead of costing one more warm-up). Files are handed out a few at a time as threads
// finish, so a few large logs cannot leave the others idle; results come back as plain data
// (FileVerdict) in whatever order they finish.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { ReadLimits } from '../core';
import { checkFile, type CheckOptions, type FileVerdict } from './check-file';
import type { FsPath } from './find-logs';

const ROLE = 'session-surface-check-worker';

interface Job {
  index: number;
  file: string;
  /** What is read (a Buffer arrives in a worker as a plain Uint8Array). */
  fsPath: FsPath;
  limits: Partial<ReadLimits>;
  options: CheckOptions;
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
    // A Buffer path arrives as a plain Uint8Array.
    const fsPath = typeof job.fsPath === 'string' ? job.fsPath : Buffer.from(job.fsPath);
    const done: Done = { index: job.index, verdict: checkFile(job.file, job.limits, { ...job.options, fsPath }) };
    port.postMessage(done);
  });
}

/**
 * Files each worker holds at once. A worker that had to wait for the main thread after every file
 * would sit idle whenever the main thread is not scheduled at once (a busy machine); with a few queued
 * it goes straight on to the next.
 */
const IN_FLIGHT = 4;

/** Checks `files` on `jobs` threads (this one and `jobs - 1` workers), reporting each verdict as it arrives. */
export function checkInWorkers(
  files: readonly { file: string; fsPath: FsPath }[],
  jobs: number,
  workerScript: string,
  limits: Partial<ReadLimits>,
  options: CheckOptions,
  onVerdict: (index: number, verdict: FileVerdict) => void,
): Promise<void> {
  return new Promise((resolve) => {
    /** Files not handed out yet, by index; files a dead worker left queued go back here. */
    const queue = files.map((_, index) => index);
    let remaining = files.length;
    let running = 0;
    const workers = jobs - 1;
    if (remaining === 0) return resolve();

    const finish = (index: number, verdict: FileVerdict) => {
      onVerdict(index, verdict);
      remaining -= 1;
      if (remaining === 0) resolve();
    };

    const start = () => {
      const worker = new Worker(workerScript, { workerData: { role: ROLE } });
      running += 1;
      /** Jobs sent to this worker and not answered yet, in the order it works through them. */
      const held: Job[] = [];
      const feed = () => {
        while (held.length < IN_FLIGHT && queue.length > 0) {
          const index = queue.shift()!;
          const job = { index, ...files[index], limits, options };
          held.push(job);
          worker.postMessage(job);
        }
        if (held.length === 0) void worker.terminate();
      };
      /**
       * A worker that dies (out of memory, a crash in the engine) costs only the file it was checking:
       * that file gets a verdict saying so, the files queued behind it go back to the queue, and a
       * fresh worker takes over.
       */
      const lose = (why: string) => {
        const lost = held.shift();
        if (lost) finish(lost.index, { file: lost.file, status: 'failed', error: `internal error: ${why}`, problems: [] });
        queue.unshift(...held.splice(0).map((job) => job.index));
      };
      worker.on('message', (done: Done) => {
        held.shift();
        finish(done.index, done.verdict);
        feed();
      });
      worker.on('error', (error) => lose(error.message.split('\n', 1)[0]));
      worker.on('exit', () => {
        running -= 1;
        if (held.length > 0) lose('the worker checking it stopped');
        if (queue.length > 0 && running < workers) start();
      });
      feed();
    };

    for (let i = 0; i < Math.min(workers, files.length - 1); i++) start();
    void checkHere();

    /** This thread's share: one file at a time, letting the workers' answers in between. */
    async function checkHere(): Promise<void> {
      while (queue.length > 0) {
        const index = queue.shift()!;
        finish(index, checkFile(files[index].file, limits, { ...options, fsPath: files[index].fsPath }));
        await new Promise((next) => setImmediate(next));
      }
    }
  });
}
