// `session-surface check FILE…`: every diagnostic as file:line: rule: message.
import type { CliCommand } from './registry';
import { parseArgs } from './registry';
import { FileReadError, openLog } from './open-log';
import { checkInvariants, provenanceIndex } from '../core';

export const checkCommand: CliCommand = {
  name: 'check',
  usage: 'check FILE…',
  summary: 'print every problem as file:line: rule: message (a verdict per file on stderr); exit 1 when dsh would refuse a file',
  run(args, io) {
    const { files } = parseArgs(args, []);
    let refused = false;
    let unreadable = false;
    for (const file of files) {
      let log;
      try {
        ({ log } = openLog(file));
      } catch (error) {
        // One file that cannot be read does not end the run: it gets its own verdict line.
        if (!(error instanceof FileReadError)) throw error;
        unreadable = true;
        io.err(`${error.message}`);
        continue;
      }
      // The relational invariants and provenance checks are warnings; they read only a log dsh loads.
      const extra = log.verdict.ok ? [...checkInvariants(log), ...provenanceIndex(log).diagnostics].filter((d) => d.severity !== 'info') : [];
      const all = [...log.diagnostics, ...extra].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
      for (const d of all) {
        const line = d.line ?? 0;
        const severity = d.severity === 'error' ? '' : `${d.severity}: `;
        io.out(`${file}:${line}: ${d.rule}: ${severity}${d.message}`);
      }
      const verdict = log.verdict;
      if (!verdict.ok) {
        refused = true;
        io.err(`${file}: refused by dsh at stage ${verdict.stage} (${verdict.rule}, line ${verdict.line ?? '?'})`);
      } else {
        io.err(`${file}: loads (${log.eventCount} events${log.lastTurnOpen ? ', last turn open' : ''})`);
      }
    }
    return unreadable ? 2 : refused ? 1 : 0;
  },
};
