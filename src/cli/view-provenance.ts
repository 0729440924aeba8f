// `session-surface provenance [--json] FILE…`: for every event that came from others, what it came
// from (chunks → message, message → tool call → result, replacement → shadowed nodes, price → priced
// nodes), the model attempts no message came from, and the index's warnings and notes.
import { defineView, type ViewContext } from './view-common';
import { provenanceIndex, type Edge } from '../core';
import { formatSeqRanges as ranges } from '../core/internal';
import { withoutWords } from './english';

/** Sources grouped by kind and how they are known: "stream 3–7 (recorded)". */
function groupSources(edges: Edge[]): string {
  const groups = new Map<string, number[]>();
  for (const e of edges) {
    const key = `${e.kind}${e.how === 'inferred' ? ' (inferred)' : ''}`;
    // Pushed, not copied: an event with a hundred thousand sources must cost as many steps, not their square.
    const seqs = groups.get(key);
    if (seqs) seqs.push(e.seq);
    else groups.set(key, [e.seq]);
  }
  return [...groups].map(([key, seqs]) => `${key} ${ranges(seqs.sort((a, b) => a - b))}`).join('; ');
}

function links({ log }: ViewContext) {
  const index = provenanceIndex(log);
  const out: { seq: number; type: string; line: number | null; sources: Edge[] }[] = [];
  for (let seq = 0; seq < log.eventCount; seq++) {
    const sources = index.sourcesOf(seq);
    if (sources.length > 0) out.push({ seq, type: log.eventType(seq) ?? '?', line: log.place(seq)?.line ?? null, sources });
  }
  return out;
}

export const provenanceView = defineView({
  name: 'provenance',
  usage: 'provenance [--json] FILE…',
  summary: 'print where each event came from (chunks, calls, results, replacements) and the provenance warnings',
  text(context, out) {
    const index = provenanceIndex(context.log);
    const s = index.summary();
    out(
      `provenance: ${s.chunks} chunks in ${s.attempts} attempts (${s.claimedChunks} in messages); edges ${Object.entries(s.edges)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    for (const link of links(context)) out(`  seq ${link.seq} (line ${link.line ?? '?'}) ${link.type} ← ${groupSources(link.sources)}`);
    const diagnostics = index.diagnostics;
    out(`warnings: ${s.warnings}, notes: ${s.infos}`);
    for (const d of diagnostics) out(`  line ${d.line ?? '?'}: ${d.severity} ${d.rule}: ${d.message}`);
  },
  json(context) {
    const index = provenanceIndex(context.log);
    return { summary: index.summary(), links: links(context), attempts: index.attempts(), diagnostics: withoutWords(index.diagnostics) };
  },
});
