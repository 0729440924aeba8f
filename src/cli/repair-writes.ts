// The writing repair actions of the CLI, each through the write layer (src/files): `--apply` (the
// crash-repair use case), `--remove-torn-tail` (an interrupted removal is completed first), and
// `--close-compaction`. A log dsh has open (its lock held) is refused; where dsh takes no lock, a log
// that changed within a minute is refused unless --force. Every refusal is a sentence naming the file.
import { PendingEdits } from '../core';
import { planTornTailRemoval, reviewTornTail, jsonText } from '../core/internal';
import { applyCrashRepair } from '../files/crash-repair';
import { completeInterruptedRemoval, removeTornTailFromFile } from '../files/torn-tail-file';
import { saveEdits } from '../files/append-save';
import { identityOf } from '../files/file-identity';
import { WriteRefused } from '../files/write-refusal';
import { english, withoutWords } from './english';
import { bytesWords, closerLine, tornTailHeading } from '../present/repair-words';
import type { CliIo } from './registry';
import type { Opened } from './repair-open';

interface Reason {
  rule: string;
  message: string;
}

function reporter(opened: Opened, json: boolean, io: CliIo) {
  return (result: Record<string, unknown>, text: string[]) => {
    if (json) io.out(jsonText(withoutWords({ file: opened.file, ...result })));
    else for (const line of text) io.out(line);
  };
}

/** Closers: planned, appended under the write layer's guards, read back and loaded again. */
export async function applyRepair(opened: Opened, json: boolean, force: boolean, io: CliIo): Promise<boolean> {
  const report = reporter(opened, json, io);
  const refused = (reasons: Reason[]) => {
    report({ applied: false, reasons }, [
      `${opened.file}: not repaired`,
      ...reasons.map((reason) => `  ${reason.rule}: ${reason.message}`),
    ]);
    return false;
  };
  const result = await applyCrashRepair(opened, {
    confirm: () => true,
    allowLive: () => force,
    allowUnlocked: () => force,
  });
  switch (result.kind) {
    case 'refused':
      return refused(result.reasons);
    case 'closed':
    case 'declined':
      report({ applied: false, closers: 0 }, [`${opened.file}: the last turn is closed; nothing appended`]);
      return true;
    case 'not-saved':
      return refused([{ rule: `repair.save-${result.stage}`, message: result.message }, ...result.reasons]);
  }
  report(
    {
      applied: true,
      closers: result.closers,
      bytes: result.bytes,
      container: result.container,
      matchesPrediction: result.matchesPrediction,
      verdict: result.verdict,
      lastTurnOpen: result.lastTurnOpen,
      ...(result.syncError ? { syncError: result.syncError } : {}),
    },
    [
      `${opened.file}: appended ${result.closers} closer${result.closers === 1 ? '' : 's'} (${bytesWords(result.bytes, english)}${result.container === 'zstd' ? ', one zstd frame' : ''})`,
      ...result.review.closers.map((c) => `  ${closerLine(c, result.review, english)}`),
      ...(result.syncError
        ? [`  warning: fsync failed (${result.syncError}): the closers are in the file but may not survive a crash`]
        : []),
      result.good
        ? '  the file now loads with the last turn closed'
        : `  CHECK FAILED after writing: ${result.matchesPrediction ? '' : 'the file differs from the prediction; '}${result.verdict.ok ? (result.lastTurnOpen ? 'the last turn is still open' : '') : result.verdict.error}`,
    ],
  );
  return result.good;
}

export async function removeTornTail(opened: Opened, json: boolean, force: boolean, io: CliIo): Promise<boolean> {
  const refused = (message: string, rule: string) => {
    if (json) io.out(JSON.stringify({ file: opened.file, removed: false, reasons: [{ rule, message }] }));
    else io.out(`${opened.file}: nothing removed: ${message}`);
    return false;
  };
  const guards = { allowLive: () => force, allowUnlocked: () => force };
  let completed;
  try {
    completed = await completeInterruptedRemoval(opened.file, guards);
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    return refused(error.message, error.rule);
  }
  if (completed) {
    if (json)
      io.out(JSON.stringify({ file: opened.file, removed: true, completed: true, backup: completed.backupPath, size: completed.size }));
    else {
      io.out(`${opened.file}: completed an interrupted removal of its torn tail (${completed.size} bytes now)`);
      io.out(`  backup: ${completed.backupPath}`);
    }
    return true;
  }
  const { log, zstd } = opened.loaded;
  const plan = planTornTailRemoval(log, opened.bytes, zstd);
  const tail = reviewTornTail(log, { fileBytes: opened.bytes, zstd });
  if (!plan.ok) {
    if (json) io.out(JSON.stringify({ file: opened.file, removed: false, reasons: withoutWords(plan.reasons) }));
    else
      for (const line of [`${opened.file}: nothing removed`, ...plan.reasons.map((reason) => `  ${reason.rule}: ${reason.message}`)])
        io.out(line);
    return plan.reasons.every((reason) => reason.rule === 'repair.no-torn-tail');
  }
  let done;
  try {
    done = await removeTornTailFromFile(opened.file, opened.bytes, plan, { ...guards, loadedMtimeMs: opened.mtimeMs, loadedId: opened.id });
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    return refused(error.message, error.rule);
  }
  if (json) {
    io.out(
      JSON.stringify({
        file: opened.file,
        removed: true,
        backup: done.backupPath,
        backupVerified: true,
        cutAt: plan.cutAt,
        removedBytes: plan.removedBytes,
        rewrittenTextBytes: plan.rewrittenTextBytes,
        ...(done.frameBytes !== undefined ? { frameBytes: done.frameBytes, frameEncoding: done.frameEncoding } : {}),
        size: done.size,
      }),
    );
  } else {
    io.out(`${opened.file}: removed ${tail ? tornTailHeading(tail, english).toLowerCase() : 'the torn tail'}`);
    io.out(`  backup: ${done.backupPath} (its bytes equal the original file, ${opened.bytes.length} bytes)`);
    io.out(
      `  the file was cut from ${opened.bytes.length} to ${plan.cutAt} bytes${done.frameBytes !== undefined ? `, then the ${bytesWords(plan.rewrittenTextBytes, english)} of complete lines of the cut frame were appended again as one frame (${bytesWords(done.frameBytes, english)}, ${done.frameEncoding}; ${done.size} bytes now)` : ''}`,
    );
  }
  return true;
}

/** Appends the compaction/end that closes a compaction a crash left open. */
export async function closeCompaction(opened: Opened, json: boolean, force: boolean, io: CliIo): Promise<boolean> {
  const report = reporter(opened, json, io);
  const edits = new PendingEdits(opened.loaded.log.eventCount);
  edits.push({ kind: 'close-compaction' });
  const target = { loaded: opened.loaded, identity: identityOf(opened.bytes, opened.mtimeMs, opened.id) };
  const saved = await saveEdits(opened.file, target, edits, { allowLive: () => force, allowUnlocked: () => force });
  if (!saved.ok) {
    const reasons = [...(saved.stage === 'plan' ? [] : [{ rule: `repair.save-${saved.stage}`, message: saved.message }]), ...saved.reasons];
    report({ closed: false, reasons }, [
      `${opened.file}: nothing closed`,
      ...reasons.map((reason) => `  ${reason.rule}: ${reason.message}`),
    ]);
    return false;
  }
  report({ closed: true, lines: saved.lines, seq: saved.firstSeq }, [
    `${opened.file}: appended compaction/end at seq ${saved.firstSeq}; compactions can run again`,
    ...saved.lines,
  ]);
  return true;
}
