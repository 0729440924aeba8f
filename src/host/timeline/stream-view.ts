// The stream inside a message (v2 and on): an assistant/message's `data.stream`, an assistant/attempt's
// `stream`. Its records are the compacted timed chunks dsh kept — packed text, reasoning and tool-call
// deltas (`time0`, `dt[]`, the pieces) and single chunks (block start and end, usage, finish) — and
// member i of a packed record happened at time0 + dt[0..i-1]. The inspector shows each record with its
// time, which content block it streamed, and whether the pieces put together give what the message
// holds (a reassembly mismatch is marked); the Time view takes the first token and the decoding from it.
import { boundedText, oneLine, valueText, type Formatter } from '../../present';
import type { StreamRecordView, StreamView } from '../../protocol';

/** Records shown at most (a stream has a few per block; a hostile one may have millions). */
const MAX_RECORDS = 500;
const TEXT_MAX = 4000;

type Loose = Record<string, unknown>;
const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A packed record's pieces and the sum of its deltas (undefined when it is not a packed record). */
function packed(record: Loose): { pieces: unknown[]; span: number } | undefined {
  const pieces = record.type === 'tool-call-chunks' ? record.args : record.texts;
  if (!Array.isArray(pieces)) return undefined;
  const dt = Array.isArray(record.dt) ? record.dt : [];
  let span = 0;
  for (const d of dt) span += finite(d) ?? 0;
  return { pieces, span };
}

const KIND: Record<string, StreamRecordView['kind']> = {
  'text-chunks': 'text',
  'reasoning-chunks': 'reasoning',
  'tool-call-chunks': 'toolCall',
};

/** When a stream's first piece of content arrived and its last record was written (epoch ms). */
export function streamTimes(stream: unknown): { firstToken?: number; last?: number } {
  if (!Array.isArray(stream)) return {};
  let firstToken: number | undefined;
  let last: number | undefined;
  for (const record of stream) {
    if (!isLoose(record)) continue;
    const p = KIND[record.type as string] ? packed(record) : undefined;
    const start = finite(p ? record.time0 : record.time);
    if (start === undefined || start <= 0) continue;
    const end = start + (p?.span ?? 0);
    if (p && p.pieces.length > 0) firstToken = firstToken === undefined ? start : Math.min(firstToken, start);
    last = last === undefined ? end : Math.max(last, end);
  }
  return { firstToken, last };
}

/** What the message's content block at `index` says, as the stream's pieces of that kind would spell it. */
function blockText(content: unknown[] | undefined, index: number, kind: StreamRecordView['kind']): string | undefined {
  const block = content?.[index];
  if (!isLoose(block)) return undefined;
  if (kind === 'toolCall') return typeof block.arguments === 'string' ? block.arguments : undefined;
  return typeof block.text === 'string' ? block.text : undefined;
}

/**
 * The stream as the inspector shows it. `content` is the message's content (absent for an attempt,
 * whose stream settled in no message): each packed record's pieces, joined per block, are compared
 * with the block they streamed. `requestAt`: when the step's request went out (its step/start's real
 * time), from which the time to first token is counted.
 */
export function streamView(stream: unknown, content: unknown[] | undefined, fmt: Formatter, requestAt?: number): StreamView | undefined {
  if (!Array.isArray(stream)) return undefined;
  const records: StreamRecordView[] = [];
  const assembled = new Map<number, { kind: StreamRecordView['kind']; text: string; records: number[] }>();
  let first: number | undefined;
  for (let i = 0; i < stream.length; i++) {
    const record = stream[i];
    if (!isLoose(record)) continue;
    const time = finite(KIND[record.type as string] ? record.time0 : record.time);
    if (time !== undefined && time > 0) first ??= time;
    const kind = KIND[record.type as string];
    const index = finite(kind ? record.index : isLoose(record.chunk) ? record.chunk.index : undefined);
    const p = kind ? packed(record) : undefined;
    const joined = p?.pieces.map((piece) => (typeof piece === 'string' ? piece : valueText(piece, 200))).join('');
    if (kind && joined !== undefined && index !== undefined) {
      const seen = assembled.get(index) ?? { kind, text: '', records: [] };
      seen.text += joined;
      seen.records.push(records.length);
      assembled.set(index, seen);
    }
    if (records.length >= MAX_RECORDS) continue;
    const view: StreamRecordView = { position: i, kind: kind ?? 'chunk', what: oneLine(recordWhat(record, fmt), 200) };
    if (index !== undefined) view.block = index;
    if (time !== undefined) {
      view.time = time;
      if (first !== undefined && time > 0) view.offsetText = `+${fmt.duration(time - first)}`;
    }
    if (p) {
      view.pieces = p.pieces.length;
      view.spanText = fmt.duration(p.span);
      view.text = boundedText(joined ?? '', TEXT_MAX);
    }
    if (kind === 'toolCall') {
      if (typeof record.name === 'string') view.name = oneLine(record.name, 80);
      if (typeof record.id === 'string') view.callId = oneLine(record.id, 120);
    }
    records.push(view);
  }
  const mismatches: StreamView['mismatches'] = [];
  if (content)
    for (const [block, seen] of assembled) {
      const expected = blockText(content, block, seen.kind);
      if (expected === undefined || expected === seen.text) continue;
      mismatches.push({
        block,
        message: fmt.t(
          'block {0}: the stream spells {1} characters, the message holds {2}; they differ from character {3}',
          block,
          fmt.count(seen.text.length),
          fmt.count(expected.length),
          fmt.count(firstDifference(seen.text, expected)),
        ),
      });
      for (const r of seen.records) if (records[r]) records[r].mismatch = true;
    }
  const times = streamTimes(stream);
  const out: StreamView = { records, omitted: Math.max(0, stream.length - records.length), mismatches };
  if (times.firstToken !== undefined && requestAt !== undefined && times.firstToken >= requestAt)
    out.firstTokenText = fmt.duration(times.firstToken - requestAt);
  if (times.firstToken !== undefined && times.last !== undefined) out.decodingText = fmt.duration(times.last - times.firstToken);
  return out;
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/** A record in a few words: the chunk's kind (block start and end, usage, finish) or the packed record's. */
function recordWhat(record: Loose, fmt: Formatter): string {
  const kind = KIND[record.type as string];
  if (kind === 'text') return fmt.t('text pieces');
  if (kind === 'reasoning') return fmt.t('reasoning pieces');
  if (kind === 'toolCall') return fmt.t('tool-call argument pieces');
  const chunk = isLoose(record.chunk) ? record.chunk : undefined;
  switch (chunk?.type) {
    case 'block-start':
      return `block-start ${oneLine(valueText(chunk.blockType, 40), 30)}`;
    case 'block-end':
      return 'block-end';
    case 'usage':
      return 'usage';
    case 'finish': {
      const reason = isLoose(chunk.reason) ? chunk.reason : {};
      const failure = isLoose(reason.failure) ? reason.failure : isLoose(reason.error) ? reason.error : undefined;
      return `finish ${oneLine(valueText(reason.kind, 30), 30)}${failure?.code !== undefined ? ` ${oneLine(valueText(failure.code, 40), 40)}` : ''}`;
    }
    default:
      return oneLine(valueText(chunk?.type ?? record.type, 40), 40);
  }
}
