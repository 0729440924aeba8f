// One-line summaries of events, messages and content blocks: enough to recognise an event in a list
// without printing a whole tool result or system reminder. Log values are untrusted: any field may
// have any type or nest deeply, so every value goes through `valueText` (depth-safe, bounded) and the
// result through `oneLine` (single line, bounded, controls and bidi neutralised). dsh's own names
// (block, chunk and source kinds, reasons) are shown as written; the words around them are translated.
import { valueText } from './bounded-json';
import type { Formatter } from './format';
import { laterEventSummary } from './later-event-summary';
import { oneLine } from './text';

/** The widest a summary gets, in UTF-16 units. */
export const SUMMARY_WIDTH = 160;

type Loose = Record<string, unknown>;
const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (v: unknown, key: string): unknown => (isLoose(v) ? v[key] : undefined);
/** A value as short text: strings as written, anything else as bounded JSON. */
const text = (v: unknown, max = 400): string => (v === undefined ? '' : valueText(v, max));
const quoted = (v: unknown, max = 120): string => JSON.stringify(oneLine(text(v, max * 4), max));

/** A content block as a short phrase: text "…", reasoning (N chars), tool-call name(args), … */
export function blockSummary(block: unknown, fmt: Formatter, depth = 0): string {
  if (!isLoose(block)) return oneLine(text(block), 60);
  switch (block.type) {
    case 'text':
      return quoted(block.text);
    case 'reasoning':
      return fmt.t('reasoning ({0} chars)', typeof block.text === 'string' ? block.text.length : 0);
    case 'tool-call':
      return `tool-call ${oneLine(text(block.name), 40)}(${oneLine(text(block.arguments), 40)}) id ${oneLine(text(block.id), 40)}`;
    case 'tool-result': {
      const inner = resultContent(block, fmt, depth + 1);
      const callId = oneLine(text(block.toolCallId), 40);
      return block.isError === true
        ? fmt.t('tool-result for {0} (error): {1}', callId, oneLine(inner, 56))
        : fmt.t('tool-result for {0}: {1}', callId, oneLine(inner, 56));
    }
    case 'image': {
      const a = block.attachment;
      return `image ${oneLine(text(field(a, 'mediaType')), 30)} ${oneLine(text(field(a, 'width') ?? '?'), 8)}×${oneLine(text(field(a, 'height') ?? '?'), 8)}`;
    }
    default:
      return fmt.t('{0} block', oneLine(text(block.type), 40));
  }
}

/** Where a message came from: user, model provider/model, tool call, plugin name. */
export function sourceSummary(source: unknown): string {
  if (!isLoose(source)) return '?';
  const kind = oneLine(text(source.kind), 40);
  if (source.kind === 'plugin') {
    const id = source.compactionId === undefined ? '' : ` ${oneLine(text(source.compactionId), 40)}`;
    return `plugin:${oneLine(text(source.plugin), 40)}${id}`;
  }
  if (source.kind === 'model') return `model ${oneLine(text(source.provider), 40)}/${oneLine(text(source.model), 60)}`;
  if (source.kind === 'tool') return `tool ${oneLine(text(source.callId), 60)}`;
  return kind;
}

/** A message (as the model sees it) in one line: source, then its blocks. */
export function messageSummary(message: unknown, fmt: Formatter, width = SUMMARY_WIDTH): string {
  if (!isLoose(message)) return fmt.t('(no message)');
  return oneLine(`[${sourceSummary(message.source)}] ${contentSummary(message.content, fmt, false)}`, width);
}

/** A message's blocks joined; `resultBodies` gives a tool-result block as what it holds, without its call id. */
function contentSummary(content: unknown, fmt: Formatter, resultBodies: boolean): string {
  const blocks = Array.isArray(content) ? content : [];
  if (blocks.length === 0) return fmt.t('(empty)');
  return blocks
    .slice(0, 12)
    .map((b) => (resultBodies && isLoose(b) && b.type === 'tool-result' ? resultBody(b, fmt) : blockSummary(b, fmt)))
    .join(' + ');
}

/** What a tool-result block holds, its inner blocks summarised at `depth` (nothing past the second level). */
function resultContent(block: Loose, fmt: Formatter, depth: number): string {
  const content = block.content;
  return depth <= 2 && Array.isArray(content)
    ? content
        .slice(0, 8)
        .map((b) => blockSummary(b, fmt, depth))
        .join(' ')
    : '';
}

function resultBody(block: Loose, fmt: Formatter): string {
  const inner = resultContent(block, fmt, 1);
  return block.isError === true ? fmt.t('(error) {0}', inner) : inner;
}

/**
 * The message of an event whose row already says its type: what it says comes first. The source is
 * left out when it is the one the type always has — a model for an assistant/message, a tool call for
 * a tool/result (whose result block then goes without the call id again) — since the model and the
 * call are in the event's inspector; any other source is kept, as it tells something.
 */
function eventMessageSummary(message: unknown, usual: 'model' | 'tool', fmt: Formatter, width: number): string {
  if (!isLoose(message) || field(message.source, 'kind') !== usual) return messageSummary(message, fmt, width);
  return oneLine(contentSummary(message.content, fmt, usual === 'tool'), width);
}

/** The token usage an event records, as `TokenUsage` numbers (undefined when none). */
export interface TokenUsage {
  input?: number;
  cachedInput?: number;
  output?: number;
  reasoning?: number;
  total?: number;
}

const tokenNumber = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/** Reads dsh's `TokenUsage` ({inputTokens, outputTokens, cacheReadTokens, reasoningTokens, totalTokens}). */
export function readUsage(usage: unknown): TokenUsage | undefined {
  if (!isLoose(usage)) return undefined;
  const out: TokenUsage = {
    input: tokenNumber(usage.inputTokens),
    cachedInput: tokenNumber(usage.cacheReadTokens),
    output: tokenNumber(usage.outputTokens),
    reasoning: tokenNumber(usage.reasoningTokens),
    total: tokenNumber(usage.totalTokens),
  };
  return Object.values(out).some((v) => v !== undefined) ? out : undefined;
}

/** The usage an event records: an assistant/message's `usage`, a usage chunk, a compaction summary's. */
export function eventUsage(type: string, data: unknown): TokenUsage | undefined {
  if (type === 'assistant/message' || type === 'compaction/summary') return readUsage(field(data, 'usage'));
  if (type === 'assistant/chunk') {
    const chunk = field(data, 'chunk');
    return field(chunk, 'type') === 'usage' ? readUsage(field(chunk, 'usage')) : undefined;
  }
  return undefined;
}

function chunkSummary(chunk: unknown, fmt: Formatter): string {
  if (!isLoose(chunk)) return oneLine(text(chunk), 60);
  switch (chunk.type) {
    case 'text-delta':
      return `text ${quoted(chunk.text)}`;
    case 'reasoning-delta':
      return `reasoning ${quoted(chunk.text)}`;
    case 'tool-call-delta':
      return `tool-call ${chunk.name === undefined ? '' : `${oneLine(text(chunk.name), 40)} `}${quoted(chunk.argumentsDelta, 60)}`;
    case 'block-start':
      return `block-start ${oneLine(text(chunk.blockType), 30)} #${oneLine(text(chunk.index), 8)}`;
    case 'block-end':
      return `block-end #${oneLine(text(chunk.index), 8)}: ${blockSummary(chunk.block, fmt)}`;
    case 'usage':
      return 'usage';
    case 'finish':
      return `finish ${oneLine(text(field(chunk.reason, 'kind')), 30)}`;
    default:
      return oneLine(text(chunk.type), 40);
  }
}

const turnStep = (data: unknown, fmt: Formatter) => {
  const turn = oneLine(text(field(data, 'turn')), 12);
  const step = field(data, 'step');
  return step === undefined ? fmt.t('turn {0}', turn) : fmt.t('turn {0} step {1}', turn, oneLine(text(step), 12));
};

/**
 * One line describing an event of any type (the body after the type label in a row). Never throws;
 * bounded by `width`.
 */
export function eventSummary(event: { type: string; data?: unknown }, fmt: Formatter, width = SUMMARY_WIDTH): string {
  const data = event.data;
  let line: string;
  switch (event.type) {
    case 'user/message':
      line = messageSummary(data, fmt, width);
      break;
    case 'assistant/message': {
      const message = eventMessageSummary(field(data, 'message'), 'model', fmt, width);
      line = field(data, 'interrupted') === true ? fmt.t('(interrupted) {0}', message) : message;
      break;
    }
    case 'tool/result': {
      const message = eventMessageSummary(field(data, 'message'), 'tool', fmt, width);
      const error = field(data, 'error');
      line = error === undefined ? message : fmt.t('{0} error {1}', message, oneLine(text(field(error, 'code')), 40));
      break;
    }
    case 'assistant/chunk':
      line = chunkSummary(field(data, 'chunk'), fmt);
      break;
    case 'tool/call':
      line = `${oneLine(text(field(data, 'name')), 40)}(${oneLine(text(field(data, 'arguments')), 80)}) id ${oneLine(text(field(data, 'callId')), 40)}`;
      break;
    case 'turn/start':
    case 'step/start':
    case 'step/end':
      line = turnStep(data, fmt);
      break;
    case 'turn/end': {
      const turn = oneLine(text(field(data, 'turn')), 12);
      const step = field(data, 'step');
      const reason = oneLine(text(field(field(data, 'reason'), 'kind')), 30);
      line =
        step === undefined ? fmt.t('turn {0}: {1}', turn, reason) : fmt.t('turn {0} step {1}: {2}', turn, oneLine(text(step), 12), reason);
      break;
    }
    case 'compaction/summary': {
      const summary = field(data, 'summary');
      const blocks = Array.isArray(summary)
        ? summary
            .slice(0, 4)
            .map((b) => blockSummary(b, fmt))
            .join(' + ')
        : '';
      const shadowed = field(data, 'shadowedSeqs');
      const id = oneLine(text(field(data, 'compactionId')), 40);
      line = Array.isArray(shadowed) ? fmt.t('{0}: shadows {1} node(s); {2}', id, shadowed.length, blocks) : `${id}: ${blocks}`;
      break;
    }
    case 'compaction/start':
    case 'compaction/end':
      line = oneLine(text(field(data, 'compactionId')), 60);
      break;
    case 'todo/write': {
      const todos = field(data, 'todos');
      const list = Array.isArray(todos) ? todos : [];
      const done = list.filter((t) => field(t, 'status') === 'completed').length;
      line = fmt.t('{0} item(s), {1} completed', list.length, done);
      break;
    }
    case 'request/header': {
      const config = field(field(data, 'header'), 'config');
      line = `${oneLine(text(field(config, 'provider')), 40)}/${oneLine(text(field(config, 'model')), 60)} (${oneLine(text(field(data, 'reason')), 20)})`;
      break;
    }
    case 'request/context':
      line = `${oneLine(text(field(data, 'provider')), 40)}/${oneLine(text(field(data, 'model')), 60)}`;
      break;
    case 'session/title':
      line = quoted(field(data, 'title'), width);
      break;
    default:
      line =
        laterEventSummary(event, fmt, width) ??
        (data === undefined || (isLoose(data) && Object.keys(data).length === 0) ? '' : text(data, width * 2));
  }
  return oneLine(line, width);
}
