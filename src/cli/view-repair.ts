// `session-surface repair [--json] FILE…`: what dsh's writable open would do to the file — the bytes it
// truncates and the closers it appends for an open final turn — without touching the file. With
// --dry-run, --apply, --remove-torn-tail or --close-compaction it reviews and writes (repair-actions.ts).
import type { CliCommand } from './registry';
import { defineView } from './view-common';
import { planRepair, stringText } from '../core';
import { isRepairAction, runRepairAction } from './repair-actions';
import { withoutWords } from './english';

const planView = defineView({
  name: 'repair',
  usage: 'repair [--json] [--dry-run | --apply | --remove-torn-tail | --close-compaction] [--force] FILE…',
  summary: 'print the closers dsh would append for an open final turn, and the exact lines',
  text({ log, loaded }, out) {
    const plan = planRepair(loaded);
    if (!plan.ok) {
      for (const r of plan.reasons) out(`  cannot repair: ${r.rule}: ${r.message}`);
      return;
    }
    if (plan.truncateAt !== undefined) {
      const torn = loaded.zstd?.tornFrameStart !== undefined;
      const size = loaded.zstd?.compressedBytes ?? log.scan.fileBytes;
      out(
        `  truncate the file to ${plan.truncateAt} bytes (${size - plan.truncateAt} bytes ${torn ? 'of its torn final frame' : 'after the last committed line'})`,
      );
    }
    if (plan.events.length === 0) {
      out('  nothing to append: the last turn is closed');
      return;
    }
    const closers = log.closers.length;
    const recovered = plan.events.length - closers;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    out(
      `  append ${recovered > 0 ? `${plural(recovered, 'recovered event')} and ${plural(closers, 'closer')}` : plural(closers, 'closer')}:`,
    );
    for (const event of plan.events) {
      const detail =
        event.type === 'tool/result'
          ? ` ${stringText(event.data.error?.code, 80)} for ${stringText(event.data.message?.source?.callId, 200)}`
          : event.type === 'turn/end'
            ? ` ${stringText(event.data.reason?.kind, 80)}`
            : '';
      out(`    seq ${event.seq} ${event.type}${detail}`);
    }
    out('  lines:');
    for (const line of plan.lines) out(line);
  },
  json({ loaded }) {
    return { repair: withoutWords(planRepair(loaded)) };
  },
});

export const repairView: CliCommand = {
  ...planView,
  run: (args, io, context) => (isRepairAction(args) ? runRepairAction(args, io) : planView.run(args, io, context)),
};
