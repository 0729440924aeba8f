// `session-surface check FILE…`: every diagnostic as file:line: rule: message.
import type { CliCommand } from './registry';
import { parseArgs } from './registry';
import { openLog } from './open-log';
import { diagnosticLine, logDiagnostics } from '../present';

export const checkCommand: CliCommand = {
  name: 'check',
  usage: 'check FILE…',
  summary: 'print every problem as file:line: rule: message (a verdict per file on stderr); exit 1 when dsh would refuse a file',
  run(args, io) {
    const { files } = parseArgs(args, []);
    let refused = false;
    for (const file of files) {
      const { log } = openLog(file);
      // The same list the session editor and the Problems panel show.
      for (const d of logDiagnostics(log)) io.out(diagnosticLine(file, d));
      const verdict = log.verdict;
      if (!verdict.ok) {
        refused = true;
        io.err(`${file}: refused by dsh at stage ${verdict.stage} (${verdict.rule}, line ${verdict.line ?? '?'})`);
      } else {
        io.err(`${file}: loads (${log.eventCount} events${log.lastTurnOpen ? ', last turn open' : ''})`);
      }
    }
    return refused ? 1 : 0;
  },
};
