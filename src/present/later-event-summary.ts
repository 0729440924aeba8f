// One-line summaries of the event types dsh's later log generations (v2–v4) write: the system prompt
// (the protected surface head; an empty one means the session has no system prompt), the developer
// messages that add or remove tools, a model attempt that did not settle, the model selection, an
// image offload, the subagent catalog, PTC dispatches and the session's policies. Same rules as
// event-summary.ts: every log value is untrusted, bounded and made one line; dsh's own names are shown
// as written, the words around them translated.
import { valueText } from './bounded-json';
import type { Formatter } from './format';
import { oneLine } from './text';

type Loose = Record<string, unknown>;
const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (v: unknown, key: string): unknown => (isLoose(v) ? v[key] : undefined);
const text = (v: unknown, max = 400): string => (v === undefined ? '' : valueText(v, max));
const word = (v: unknown, max = 60): string => oneLine(text(v), max);
const quoted = (v: unknown, max = 120): string => JSON.stringify(oneLine(text(v, max * 4), max));

/** The text of a message's text blocks, joined (what a system or developer message says). */
function messageText(message: unknown): string {
  const content = field(message, 'content');
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => field(b, 'type') === 'text')
    .map((b) => text(field(b, 'text'), 2000))
    .join(' ');
}

/** Whether a system/message carries no prompt at all (dsh writes an empty head when there is none). */
export function isEmptySystemPrompt(data: unknown): boolean {
  const content = field(field(data, 'message'), 'content');
  return Array.isArray(content) && content.length === 0;
}

/** The tools a developer/message adds and removes (its `tool-addition` / `tool-removal` blocks). */
export function developerToolChanges(data: unknown): { added: string[]; removed: string[] } {
  const content = field(field(data, 'message'), 'content');
  const added: string[] = [];
  const removed: string[] = [];
  if (Array.isArray(content))
    for (const block of content) {
      const type = field(block, 'type');
      if (type === 'tool-addition') added.push(word(field(block, 'toolName'), 80));
      else if (type === 'tool-removal') removed.push(word(field(block, 'toolName'), 80));
    }
  return { added, removed };
}

/** How a stream ended, from its `finish` chunk: the reason kind and a failure's code. */
export function streamEnding(stream: unknown): { kind?: string; code?: string } {
  if (!Array.isArray(stream)) return {};
  for (let i = stream.length - 1; i >= 0; i--) {
    const chunk = field(stream[i], 'chunk');
    if (field(stream[i], 'type') === 'chunk' && field(chunk, 'type') === 'finish') {
      const reason = field(chunk, 'reason');
      const failure = field(reason, 'failure') ?? field(reason, 'error');
      const out: { kind?: string; code?: string } = {};
      if (field(reason, 'kind') !== undefined) out.kind = word(field(reason, 'kind'), 30);
      if (field(failure, 'code') !== undefined) out.code = word(field(failure, 'code'), 40);
      return out;
    }
  }
  return {};
}

/** The messages an image/offload names and the image indexes of each (both spellings dsh has written). */
export function offloadTargets(data: unknown): { seq: number; images: number[] }[] {
  const targets = field(data, 'targets');
  if (!Array.isArray(targets)) return [];
  const bySeq = new Map<number, number[]>();
  for (const target of targets.slice(0, 1000)) {
    const seq = field(target, 'seq') ?? field(target, 'messageSeq');
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) continue;
    const many = field(target, 'imageIndexes');
    const one = field(target, 'imageIndex');
    const indexes = (Array.isArray(many) ? many : [one]).filter((i): i is number => typeof i === 'number' && Number.isSafeInteger(i));
    const list = bySeq.get(seq) ?? [];
    list.push(...indexes);
    bySeq.set(seq, list);
  }
  return [...bySeq].map(([seq, images]) => ({ seq, images: images.sort((a, b) => a - b) }));
}

/** The summary of a later generation's event type, or undefined for a type this file does not word. */
export function laterEventSummary(event: { type: string; data?: unknown }, fmt: Formatter, width: number): string | undefined {
  const data = event.data;
  switch (event.type) {
    case 'system/message':
      return isEmptySystemPrompt(data) ? fmt.t('no system prompt (empty)') : quoted(messageText(field(data, 'message')), width);
    case 'developer/message': {
      const { added, removed } = developerToolChanges(data);
      const parts: string[] = [];
      if (added.length) parts.push(fmt.t('adds {0}', added.join(', ')));
      if (removed.length) parts.push(fmt.t('removes {0}', removed.join(', ')));
      const said = parts.length ? parts.join('; ') : quoted(messageText(field(data, 'message')), width);
      const header = field(data, 'headerSeq');
      return typeof header === 'number' ? fmt.t('{0} (request header seq {1})', said, header) : said;
    }
    case 'assistant/attempt': {
      const stream = field(data, 'stream');
      const ending = streamEnding(stream);
      const records = Array.isArray(stream) ? stream.length : 0;
      const how = ending.kind ? (ending.code ? `${ending.kind} ${ending.code}` : ending.kind) : fmt.t('no finish');
      return fmt.t('did not settle: {0}; {1}', how, fmt.counted(records, '{0} stream record', '{0} stream records'));
    }
    case 'model/selection': {
      const effort = field(data, 'reasoningEffort');
      const route = `${word(field(data, 'provider'), 40)}/${word(field(data, 'model'), 60)}`;
      return effort === undefined ? route : fmt.t('{0}, reasoning effort {1}', route, word(effort, 20));
    }
    case 'image/offload': {
      const targets = offloadTargets(data);
      const images = targets.reduce((n, t) => n + Math.max(1, t.images.length), 0);
      return fmt.t(
        '{0} of {1}',
        fmt.counted(images, 'offloads {0} image', 'offloads {0} images'),
        targets.map((t) => `seq ${t.seq}`).join(', '),
      );
    }
    case 'subagent/catalog': {
      const label = field(data, 'label');
      const mode = word(field(data, 'mode'), 20);
      return label === undefined
        ? fmt.t('child {0} ({1})', word(field(data, 'childId'), 80), mode)
        : fmt.t('child {0} ({1}, {2})', word(field(data, 'childId'), 80), mode, quoted(label, 60));
    }
    case 'tool/ptc-dispatch-start':
    case 'tool/ptc-dispatch': {
      const call = `${word(field(data, 'name'), 40)}(${oneLine(text(field(data, 'arguments')), 60)}) id ${word(field(data, 'subCallId'), 60)}`;
      return field(data, 'isError') === true ? fmt.t('{0} (error)', call) : call;
    }
    case 'permission/preset':
      return word(field(data, 'preset'));
    case 'sandbox/mode':
      return word(field(data, 'mode'));
    case 'approval/policy':
      return word(field(data, 'policy'));
    case 'session/end-seed':
      return field(data, 'inherited') === true ? fmt.t('end of the seed inherited from the parent session') : '';
    default:
      return undefined;
  }
}
