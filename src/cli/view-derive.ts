// `session-surface derive [--repaired] [--json] FILE…`: the messages the model would be sent for the
// surface (dsh's deriveMessages): a summary line per message and block, or the full messages as JSON.
import { defineView, type ViewContext } from './view-common';
import { blockSummary, oneLine, sourceSummary } from '../present';
import { stringText } from '../core';
import { english } from './english';

function messages({ log, flags }: ViewContext) {
  return log.deriveMessages(flags.has('--repaired') ? log.repairedSurface() : log.surface());
}

export const deriveView = defineView({
  name: 'derive',
  usage: 'derive [--repaired] [--json] FILE…',
  summary: 'print the derived messages the model sees (one line per content block)',
  flags: ['repaired'],
  text(context, out) {
    const list = messages(context);
    out(`derived messages: ${list.length}`);
    list.forEach((message, index) => {
      const m = message as Record<string, any>;
      const blocks: unknown[] = Array.isArray(m.content) ? m.content : [];
      // Role and id are log values of any shape: shown bounded and on one line.
      out(`  [${index}] ${oneLine(stringText(m.role, 200), 40)} ${oneLine(stringText(m.id, 400), 120)} [${sourceSummary(m.source)}]`);
      for (const block of blocks) out(`      ${blockSummary(block, english)}`);
    });
  },
  json(context) {
    return { messages: messages(context) };
  },
});
