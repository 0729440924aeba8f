// `session-surface surface [--repaired] [--json] FILE…`: the surface nodes (what the model sees next)
// with type, line and a one-line summary, the balanced cuts, and what each replacement shadowed.
import { defineView, type ViewContext } from './view-common';
import { messageOf, SurfaceRole } from '../core';
import { formatSeqRanges as ranges } from '../core/internal';
import { messageSummary } from '../present';
import { countOf, english } from './english';

function nodesOf({ log, flags }: ViewContext): readonly number[] {
  return flags.has('--repaired') ? log.repairedSurface() : log.surface();
}

function replacementsOf({ log, flags }: ViewContext) {
  return flags.has('--repaired') ? log.repairedReplacements() : log.replacements();
}

function nodeRow(context: ViewContext, seq: number) {
  const { log } = context;
  const event = log.event(seq);
  const type = log.eventType(seq) ?? '?';
  const message = messageOf(event);
  const role = seq >= log.eventCount ? 'closer' : log.surfaceRole(seq) === SurfaceRole.Replace ? 'replace' : 'append';
  return { seq, line: log.place(seq)?.line ?? null, type, role, summary: messageSummary(message, english) };
}

export const surfaceView = defineView({
  name: 'surface',
  usage: 'surface [--repaired] [--json] FILE…',
  summary: 'print the surface (model-visible nodes) with a line per node, the balanced cuts and the replacements',
  flags: ['repaired'],
  text(context, out) {
    const nodes = nodesOf(context);
    const cuts = context.log.balancedCuts(nodes);
    out(`surface: ${countOf(nodes.length, 'node', 'nodes')}${context.flags.has('--repaired') ? ' (with the repair closers)' : ''}`);
    nodes.forEach((seq, index) => {
      const row = nodeRow(context, seq);
      const where = row.line === null ? 'closer' : `line ${row.line}`;
      out(`  #${index} seq ${seq} (${where}) ${row.type}${row.role === 'replace' ? ' [replace]' : ''} ${row.summary}`);
    });
    out('error' in cuts ? `balanced cuts: none — ${cuts.error}` : `balanced cuts: ${cuts.cuts.join(', ')}`);
    const replacements = replacementsOf(context);
    out(`replacements: ${replacements.length}`);
    for (const r of replacements) {
      out(
        `  seq ${r.seq} (line ${context.log.place(r.seq)?.line ?? '?'}) replaced ${r.start}..${r.end}, shadowing seq ${ranges(r.shadowedSeqs)}`,
      );
    }
  },
  json(context) {
    const nodes = nodesOf(context);
    const cuts = context.log.balancedCuts(nodes);
    return {
      surface: nodes.map((seq) => nodeRow(context, seq)),
      ...('error' in cuts ? { balancedCutsError: cuts.error } : { balancedCuts: cuts.cuts }),
      replacements: replacementsOf(context),
    };
  },
});
