// `check --upgrade`: before upgrading dsh, which sessions would stop opening. Only the logs today's dsh
// would refuse are listed, each with the edge or step that refuses it, the line and dsh's own message;
// a closing line counts them.
import type { CliIo } from './registry';
import type { FileVerdict } from './check-file';
import { formatLabel, upgradeWords } from '../present';
import { english } from './english';

/** True when today's dsh would refuse the log (or its file could not be read or checked at all). */
export function upgradeRefused(verdict: FileVerdict): boolean {
  if (verdict.status === 'unreadable' || verdict.status === 'failed') return true;
  return verdict.upgrade !== undefined && !verdict.upgrade.ok;
}

/** The run's summary as `check` gathers it (only the file count and the time are said here). */
interface Summary {
  files: number;
  seconds: number;
  [more: string]: unknown;
}

export function upgradePrinter(io: CliIo, json: boolean) {
  let refused = 0;
  return {
    file(verdict: FileVerdict): void {
      if (!upgradeRefused(verdict)) return;
      refused += 1;
      if (json) {
        io.out(
          JSON.stringify(
            verdict.status === 'loads' || verdict.status === 'refused'
              ? { file: verdict.file, format: verdict.format, upgrade: verdict.upgrade }
              : verdict,
          ),
        );
        return;
      }
      if (verdict.status === 'unreadable' || verdict.status === 'failed') {
        io.out(`${verdict.file}: cannot be checked: ${verdict.error}`);
        return;
      }
      const words = upgradeWords(verdict.upgrade!, verdict.format ?? null, english);
      io.out(`${verdict.file}: ${formatLabel(verdict.format, english)}. ${words.text}${words.dshText ? ` ${words.dshText}` : ''}`);
    },
    summary(s: Summary): void {
      if (json) {
        io.out(JSON.stringify({ summary: { files: s.files, wouldRefuse: refused, seconds: Number(s.seconds.toFixed(3)) } }));
        return;
      }
      io.err(
        refused === 0
          ? `checked ${s.files} log${s.files === 1 ? '' : 's'} in ${s.seconds.toFixed(2)} s: today's dsh opens every one`
          : `checked ${s.files} log${s.files === 1 ? '' : 's'} in ${s.seconds.toFixed(2)} s: today's dsh would refuse ${refused} of them`,
      );
    },
  };
}
