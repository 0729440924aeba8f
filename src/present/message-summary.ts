// One-line summaries of messages and content blocks for the text views: enough to recognise a node
// without printing a whole tool result or system reminder.
import { stringText } from '../core';
export { formatSeqRanges as ranges } from '../core/internal';
import type { Formatter } from './format';

/** A log value as a short word (log values may be anything; see stringText). */
const word = (value: unknown): string => stringText(value, 80);

const WIDTH = 72;

export function clip(text: string, width = WIDTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** A content block as a short phrase: text "…", reasoning (N chars), tool-call name(args), … */
export function blockSummary(block: unknown, fmt: Formatter): string {
  if (block === null || typeof block !== 'object') return word(block);
  const b = block as Record<string, any>;
  switch (b.type) {
    case 'text':
      return JSON.stringify(clip(stringText(b.text ?? '', 400)));
    case 'reasoning':
      return fmt.t('reasoning ({0} chars)', typeof b.text === 'string' ? b.text.length : 0);
    case 'tool-call':
      return `tool-call ${word(b.name)}(${clip(stringText(b.arguments ?? '', 400), 40)}) id ${word(b.id)}`;
    case 'tool-result': {
      const inner = Array.isArray(b.content) ? b.content.map((c: unknown) => blockSummary(c, fmt)).join(' ') : '';
      return b.isError
        ? fmt.t('tool-result for {0} (error): {1}', word(b.toolCallId), clip(inner, 56))
        : fmt.t('tool-result for {0}: {1}', word(b.toolCallId), clip(inner, 56));
    }
    case 'image':
      return `image ${word(b.attachment?.mediaType ?? '')} ${word(b.attachment?.width ?? '?')}×${word(b.attachment?.height ?? '?')}`;
    default:
      return fmt.t('{0} block', word(b.type));
  }
}

/** Where a message came from: user, model provider/model, tool call, plugin name. */
export function sourceSummary(source: unknown): string {
  if (source === null || typeof source !== 'object') return '?';
  const s = source as Record<string, any>;
  if (s.kind === 'plugin') return `plugin:${word(s.plugin)}${s.compactionId ? ` ${word(s.compactionId)}` : ''}`;
  if (s.kind === 'model') return `model ${word(s.provider)}/${word(s.model)}`;
  if (s.kind === 'tool') return `tool ${word(s.callId)}`;
  return word(s.kind);
}

/** A message (as the model sees it) in one line: source, then its blocks. */
export function messageSummary(message: unknown, fmt: Formatter): string {
  if (message === null || typeof message !== 'object') return fmt.t('(no message)');
  const m = message as Record<string, any>;
  const blocks = Array.isArray(m.content) ? m.content : [];
  const body = blocks.length === 0 ? fmt.t('(empty)') : blocks.map((b: unknown) => blockSummary(b, fmt)).join(' + ');
  return `[${sourceSummary(m.source)}] ${clip(body, 110)}`;
}
