// Opening a log for a write: the one way in for every writer of ours, holding what keeps other writers
// out until the write is done. In order:
//   1. the file must be its session folder's current generation (dsh never reads an older one);
//   2. dsh's own lock, the way dsh takes it (an flock, LOCK_EX | LOCK_NB, on `session.lock` in the
//      session folder; the locked inode must still be the file at that path, else open it again, up to
//      three times): a held lock is a live dsh, so the write is refused (or waited for, in the editor);
//   3. the log, opened on one descriptor that every check and the write itself go through;
//   4. an flock on that log's open file, so two writers of ours (an editor and a command) never
//      write the same log at once.
// Releasing closes the descriptors, which is what releases the locks; a crash releases them too.
import { basename, dirname, join } from 'node:path';
import type { LogFileSystem, LogHandle, OpenMode } from './file-access';
import { LOCK_FILE, lockPolicy, notCurrentGeneration } from './generation';
import { io, WriteRefused } from './write-refusal';

export interface WriteAccessOptions {
  files: LogFileSystem;
  mode: Exclude<OpenMode, 'read'>;
  /**
   * dsh holds its lock: wait for it (the editor, with progress and a Cancel button), calling `retry`
   * until it returns true; resolve false to give up. Absent: refuse at once (the CLI).
   */
  waitForLock?: (retry: () => Promise<boolean>) => Promise<boolean>;
  /** This system cannot take dsh's lock (`why` says what is missing): write without it? (CLI: --force.) */
  allowUnlocked?: (why: string) => boolean | Promise<boolean>;
}

export interface WriteAccess {
  /** The log, open in the mode asked for. */
  readonly handle: LogHandle;
  /** `held`: dsh's lock is ours, so no dsh ≥ 0.1.3 writes meanwhile; `none`: only the liveness guard protects the write. */
  readonly dshLock: 'held' | 'none';
  release(): void;
}

type DshLock = { kind: 'held'; handle: LogHandle } | { kind: 'busy' } | { kind: 'unavailable'; why: string } | { kind: 'absent' };

/** dsh's protocol: lock without waiting, then make sure the locked inode is still the lock file. */
async function takeDshLock(files: LogFileSystem, path: string, create: boolean): Promise<DshLock> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const handle = io('open the session lock', path, () => files.openLockFile(path, create));
    if (!handle) return { kind: 'absent' };
    let keep = false;
    try {
      const result = await files.tryLock(handle);
      if (result.kind !== 'locked') return result;
      const now = files.stat(path);
      if (now !== undefined && now.id === handle.stat().id) {
        keep = true;
        return { kind: 'held', handle };
      }
    } finally {
      if (!keep) handle.close();
    }
  }
  return { kind: 'busy' };
}

function lockHeld(path: string, lockPath: string): WriteRefused {
  return new WriteRefused(
    `dsh holds the lock on ${lockPath}: the session of ${basename(path)} is open for writing in a running dsh, which appends to it at any moment; nothing was written. ` +
      'Write it once that agent has exited (or the session is closed)',
    'write.lock-held',
  );
}

/** Opens `path` for a write and takes every lock it needs; throws WriteRefused when it may not be written. */
export async function openForWrite(path: string, options: WriteAccessOptions): Promise<WriteAccess> {
  const { files } = options;
  const dir = dirname(path);
  const name = basename(path);
  const names = io('list the session folder', dir, () => files.list(dir));
  const old = notCurrentGeneration(name, names);
  if (old) throw new WriteRefused(old, 'write.old-generation');

  const lockPath = join(dir, LOCK_FILE);
  const required = lockPolicy(name) === 'required';
  let lock: DshLock = required || names.includes(LOCK_FILE) ? await takeDshLock(files, lockPath, required) : { kind: 'absent' };
  if (lock.kind === 'busy') {
    if (!options.waitForLock) throw lockHeld(path, lockPath);
    let taken: DshLock = lock;
    const waited = await options.waitForLock(async () => {
      taken = await takeDshLock(files, lockPath, required);
      return taken.kind !== 'busy';
    });
    if (!waited) throw lockHeld(path, lockPath);
    lock = taken;
  }
  if (lock.kind === 'unavailable') {
    const why = `cannot take dsh's lock on ${lockPath}: ${lock.why}`;
    const allowed = options.allowUnlocked ? await options.allowUnlocked(why) : false;
    if (!allowed) throw new WriteRefused(`${why}; nothing was written`, 'write.lock-unavailable');
  }
  const dshLock = lock.kind === 'held' ? lock.handle : undefined;
  let handle: LogHandle | undefined;
  try {
    const action = options.mode === 'append' ? 'open for appending' : 'open for cutting';
    handle = io(action, path, () => files.open(path, options.mode), '; nothing was written');
    const own = await files.tryLock(handle);
    if (own.kind === 'busy')
      throw new WriteRefused(
        `another writer of this tool (an editor or a command) is writing ${path} right now; nothing was written`,
        'write.busy',
      );
    const opened = handle;
    return {
      handle: opened,
      dshLock: dshLock ? 'held' : 'none',
      release() {
        opened.close();
        dshLock?.close();
      },
    };
  } catch (error) {
    handle?.close();
    dshLock?.close();
    throw error;
  }
}
