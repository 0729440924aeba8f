// `session-surface check [--json] [--jobs N] [--own | --upgrade] FILE|DIR…`: every problem as
// file:line: rule: message on stdout and, per file on stderr, the verdict of the file's own generation
// and today's dsh's (it migrates an older log, or refuses) — or one JSON object per file with --json —
// then, for more than one file, a summary. `--own` skips today's dsh's verdict (an older log is then
// read once instead of twice); `--upgrade` lists only the logs today's dsh would refuse, and why. Directories are walked for *.jsonl and *.jsonl.zstd; files are checked on
// worker threads. Exit 1 when dsh would refuse any log (or one fails to check), 2 when a path cannot be
// read or on usage errors.
import { availableParallelism } from 'node:os';
import type { CliCommand, CliIo } from './registry';
import { parseCommandArgs, positiveInteger } from './args';
import { UsageError } from './registry';
import { upgradePrinter, upgradeRefused } from './check-upgrade';
import { checkFile, verdictText, type FileVerdict } from './check-file';
import { checkInWorkers } from './check-pool';
import { findLogs, type FsPath } from './find-logs';
import { LIMIT_OPTIONS, readLimits } from './limit-options';

export const checkCommand: CliCommand = {
  name: 'check',
  usage: 'check [--json] [--jobs N] [--own | --upgrade] FILE|DIR…',
  summary:
    "print every problem as file:line: rule: message and two verdicts per file: the file's own generation's and whether today's dsh migrates it (--own: the first only, faster; --upgrade: the second only); exit 1 when dsh would refuse a log",
  readsLogs: true,
  async run(args, io, context) {
    const { values, operands } = parseCommandArgs(
      args,
      {
        json: { type: 'boolean' },
        jobs: { type: 'string', short: 'j' },
        own: { type: 'boolean' },
        upgrade: { type: 'boolean' },
        ...LIMIT_OPTIONS,
      },
      { operands: 'FILE or DIR' },
    );
    const jobs = positiveInteger('jobs', values.jobs, availableParallelism());
    if (values.own && values.upgrade) throw new UsageError('--own and --upgrade ask for different verdicts: give one of them');
    const options = { upgrade: values.own !== true };
    const upgradeOnly = values.upgrade === true;
    const limits = readLimits(values);
    const started = performance.now();
    const cpuAtStart = process.cpuUsage();
    const { targets, directories } = findLogs(operands);
    const report = upgradeOnly ? upgradePrinter(io, values.json === true) : printer(io, values.json === true);

    // Verdicts are printed in the order of the files, as soon as every earlier file has one.
    const verdicts: (FileVerdict | undefined)[] = new Array(targets.length);
    let printed = 0;
    const accept = (index: number, verdict: FileVerdict) => {
      verdicts[index] = verdict;
      while (printed < verdicts.length && verdicts[printed]) report.file(verdicts[printed++]!);
    };

    const readable: { index: number; path: string; fsPath: FsPath }[] = [];
    targets.forEach((target, index) => {
      if (target.error) accept(index, { file: target.path, status: 'unreadable', error: target.error, problems: [] });
      else readable.push({ index, path: target.path, fsPath: target.fsPath });
    });
    const workers = Math.min(jobs, readable.length);
    if (workers > 1 && context.workerScript) {
      await checkInWorkers(
        readable.map((r) => ({ file: r.path, fsPath: r.fsPath })),
        workers,
        context.workerScript,
        limits,
        options,
        (i, verdict) => accept(readable[i].index, verdict),
      );
    } else {
      for (const { index, path, fsPath } of readable) accept(index, checkFile(path, limits, { ...options, fsPath }));
    }

    const tally = { files: targets.length, loads: 0, refused: 0, unreadable: 0, failed: 0 };
    for (const verdict of verdicts) tally[verdict!.status] += 1;
    const seconds = (performance.now() - started) / 1000;
    // Process-wide, so the worker threads' time is counted too.
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    if (targets.length === 0) io.err(`session-surface check: no *.jsonl or *.jsonl.zstd files under ${operands.join(', ')}`);
    if (values.json || targets.length !== 1 || directories > 0)
      report.summary({ ...tally, jobs: context.workerScript ? Math.max(workers, 1) : 1, seconds, cpuSeconds });
    if (tally.unreadable > 0) return 2;
    if (upgradeOnly) return verdicts.some((v) => upgradeRefused(v!)) || tally.failed > 0 ? 1 : 0;
    return tally.refused + tally.failed > 0 ? 1 : 0;
  },
};

interface Summary {
  files: number;
  loads: number;
  refused: number;
  unreadable: number;
  failed: number;
  jobs: number;
  seconds: number;
  cpuSeconds: number;
}

function printer(io: CliIo, json: boolean) {
  if (json) {
    return {
      file: (verdict: FileVerdict) => io.out(JSON.stringify(verdict)),
      summary: (summary: Summary) =>
        io.out(
          JSON.stringify({
            summary: { ...summary, seconds: Number(summary.seconds.toFixed(3)), cpuSeconds: Number(summary.cpuSeconds.toFixed(3)) },
          }),
        ),
    };
  }
  return {
    file: (verdict: FileVerdict) => {
      const text = verdictText(verdict);
      for (const line of text.problems) io.out(line);
      io.err(text.verdict);
    },
    summary: (s: Summary) => {
      const parts = [`${s.loads} load`, `${s.refused} refused`];
      if (s.unreadable) parts.push(`${s.unreadable} unreadable`);
      if (s.failed) parts.push(`${s.failed} failed`);
      io.err(
        `checked ${s.files} log${s.files === 1 ? '' : 's'} in ${s.seconds.toFixed(2)} s (${s.jobs} job${s.jobs === 1 ? '' : 's'}): ${parts.join(', ')}`,
      );
    },
  };
}
