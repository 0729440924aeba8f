// One-line summaries of messages and content blocks for the text views: enough to recognise a node
// without printing a whole tool result or system reminder.
export { formatSeqRanges as ranges } from '../core/provenance/seq-ranges';

const WIDTH = 72;

export function clip(text: string, width = WIDTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** A content block as a short phrase: text "…", reasoning (N chars), tool-call name(args), … */
export function blockSummary(block: unknown): string {
  if (block === null || typeof block !== 'object') return String(block);
  const b = block as Record<string, any>;
  switch (b.type) {
    case 'text':
      return JSON.stringify(clip(String(b.text ?? '')));
    case 'reasoning':
      return `reasoning (${String(b.text ?? '').length} chars)`;
    case 'tool-call':
      return `tool-call ${b.name}(${clip(String(b.arguments ?? ''), 40)}) id ${b.id}`;
    case 'tool-result': {
      const inner = Array.isArray(b.content) ? b.content.map(blockSummary).join(' ') : '';
      return `tool-result for ${b.toolCallId}${b.isError ? ' (error)' : ''}: ${clip(inner, 56)}`;
    }
    case 'image':
      return `image ${b.attachment?.mediaType ?? ''} ${b.attachment?.width ?? '?'}×${b.attachment?.height ?? '?'}`;
    default:
      return `${String(b.type)} block`;
  }
}

/** Where a message came from: user, model provider/model, tool call, plugin name. */
export function sourceSummary(source: unknown): string {
  if (source === null || typeof source !== 'object') return '?';
  const s = source as Record<string, any>;
  if (s.kind === 'plugin') return `plugin:${s.plugin}${s.compactionId ? ` ${s.compactionId}` : ''}`;
  if (s.kind === 'model') return `model ${s.provider}/${s.model}`;
  if (s.kind === 'tool') return `tool ${s.callId}`;
  return String(s.kind);
}

/** A message (as the model sees it) in one line: source, then its blocks. */
export function messageSummary(message: unknown): string {
  if (message === null || typeof message !== 'object') return '(no message)';
  const m = message as Record<string, any>;
  const blocks = Array.isArray(m.content) ? m.content : [];
  const body = blocks.length === 0 ? '(empty)' : blocks.map(blockSummary).join(' + ');
  return `[${sourceSummary(m.source)}] ${clip(body, 110)}`;
}
