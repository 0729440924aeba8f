// The inspector's view of one event: its content, its provenance links both directions (and the seqs
// they mark in the list), its problems and its raw line; for a message of a later generation also the
// stream inside it, and for a subagent catalog entry the child session it names.
import { provenanceIndex, type Diagnostic, type Edge, type SessionLog, messageOf as carriedMessage } from '../../core';
import {
  boundedJson,
  boundedText,
  eventSummary,
  oneLine,
  readUsage,
  sourceSummary,
  typeIcon,
  typeLabel,
  valueText,
  type Formatter,
} from '../../present';
import type { ContentBlockView, EventDetail, LinkRelation, ProblemView, ProvenanceLink } from '../../protocol';
import { eventTime, isRealTime, timeBounds } from './rows';
import type { LaterLinks } from './later-links';
import { streamView } from './stream-view';
import type { TimelineIndex } from './timeline-index';

/** Bounds: the inspector shows a lot, but never megabytes. */
const TEXT_MAX = 50_000;
const RAW_MAX = 64 * 1024;
const MAX_BLOCKS = 200;
const MAX_LINKS = 2000;
const MAX_FIELDS = 50;

type Loose = Record<string, unknown>;
const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : valueText(v, 2000));

/** Tool-call arguments as formatted JSON when they parse, else as written. */
function argumentsText(args: unknown) {
  if (typeof args === 'string' && args.length <= 4 * 1024 * 1024) {
    try {
      const pretty = boundedJson(JSON.parse(args), { indent: 2, maxChars: TEXT_MAX });
      return boundedText(pretty.text, TEXT_MAX + 1);
    } catch {
      // not JSON: shown as written
    }
  }
  return boundedText(str(args), TEXT_MAX);
}

function blockView(block: unknown, depth = 0): ContentBlockView {
  if (!isLoose(block))
    return {
      kind: 'other',
      blockType: typeof block,
      json: boundedText(boundedJson(block, { indent: 2, maxChars: TEXT_MAX }).text, TEXT_MAX + 1),
    };
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: boundedText(str(block.text), TEXT_MAX) };
    case 'reasoning':
      return { kind: 'reasoning', text: boundedText(str(block.text), TEXT_MAX) };
    case 'tool-call':
      return {
        kind: 'toolCall',
        name: oneLine(str(block.name), 200),
        callId: oneLine(str(block.id), 200),
        arguments: argumentsText(block.arguments),
      };
    case 'tool-result': {
      const content = Array.isArray(block.content) ? block.content : [];
      const parts =
        depth < 3
          ? content.slice(0, MAX_BLOCKS).map((b) => {
              const v = blockView(b, depth + 1);
              return v.kind === 'text' || v.kind === 'reasoning'
                ? v.text.text
                : v.kind === 'image'
                  ? `[image ${v.mediaType}]`
                  : v.kind === 'toolResult'
                    ? v.content.text
                    : v.kind === 'toolCall'
                      ? v.arguments.text
                      : v.kind === 'toolChange'
                        ? v.toolName
                        : v.json.text;
            })
          : [];
      return {
        kind: 'toolResult',
        callId: oneLine(str(block.toolCallId), 200),
        isError: block.isError === true,
        content: boundedText(parts.join('\n'), TEXT_MAX),
      };
    }
    case 'tool-addition':
    case 'tool-removal':
      return { kind: 'toolChange', added: block.type === 'tool-addition', toolName: oneLine(str(block.toolName), 200) };
    case 'image': {
      const a = isLoose(block.attachment) ? block.attachment : {};
      const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
      const view: ContentBlockView = { kind: 'image', mediaType: oneLine(str(a.mediaType ?? ''), 100) };
      const width = num(a.width);
      const height = num(a.height);
      const bytes = num(a.bytes);
      if (width !== undefined) view.width = width;
      if (height !== undefined) view.height = height;
      if (bytes !== undefined) view.bytes = bytes;
      if (a.name !== undefined) view.name = oneLine(str(a.name), 200);
      return view;
    }
    default:
      return {
        kind: 'other',
        blockType: oneLine(str(block.type), 80),
        json: boundedText(boundedJson(block, { indent: 2, maxChars: TEXT_MAX }).text, TEXT_MAX + 1),
      };
  }
}

/** The message an event carries (user/message is the message itself; system, developer, assistant and tool messages hold one). */
function messageOf(type: string, data: unknown): unknown {
  return carriedMessage({ type, data });
}

function contentBlocks(type: string, data: unknown, offloaded: ReadonlyMap<number, number>): ContentBlockView[] {
  const message = messageOf(type, data);
  if (isLoose(message)) {
    if (!Array.isArray(message.content)) return [];
    let image = 0;
    return message.content.slice(0, MAX_BLOCKS).map((b) => {
      const view = blockView(b);
      // An image/offload names a message's images by their order among its image blocks.
      if (view.kind === 'image') {
        const by = offloaded.get(image++);
        if (by !== undefined) view.offloadedBy = by;
      }
      return view;
    });
  }
  if (!isLoose(data)) return [];
  if (type === 'tool/call')
    return [
      {
        kind: 'toolCall',
        name: oneLine(str(data.name), 200),
        callId: oneLine(str(data.callId), 200),
        arguments: argumentsText(data.arguments),
      },
    ];
  if (type === 'compaction/summary' && Array.isArray(data.summary)) return data.summary.slice(0, MAX_BLOCKS).map((b) => blockView(b));
  if (type === 'assistant/chunk' && isLoose(data.chunk)) {
    const c = data.chunk;
    if (c.type === 'text-delta') return [{ kind: 'text', text: boundedText(str(c.text), TEXT_MAX) }];
    if (c.type === 'reasoning-delta') return [{ kind: 'reasoning', text: boundedText(str(c.text), TEXT_MAX) }];
    if (c.type === 'block-end') return [blockView(c.block)];
  }
  return [];
}

const SHOWN_AS_CONTENT = new Set(['message', 'summary', 'usage', 'stream']);

function otherFields(type: string, data: unknown): { name: string; value: string }[] {
  if (!isLoose(data) || type === 'user/message') return [];
  const out: { name: string; value: string }[] = [];
  for (const key of Object.keys(data)) {
    if (out.length >= MAX_FIELDS) break;
    if (SHOWN_AS_CONTENT.has(key) || (type === 'tool/call' && (key === 'arguments' || key === 'name' || key === 'callId'))) continue;
    out.push({ name: oneLine(key, 80), value: oneLine(valueText(data[key], 600), 300) });
  }
  return out;
}

const SOURCE_RELATION: Record<Edge['kind'], LinkRelation> = {
  stream: 'chunk',
  call: 'requestedBy',
  result: 'answers',
  replace: 'shadowed',
  cite: 'source',
  price: 'source',
};
const DERIVED_RELATION: Record<Edge['kind'], LinkRelation> = {
  stream: 'message',
  call: 'call',
  result: 'result',
  replace: 'shadowedBy',
  cite: 'derived',
  price: 'derived',
};

export function provenanceLinks(log: SessionLog, seq: number, fmt: Formatter, later?: LaterLinks): ProvenanceLink[] {
  if (seq >= log.eventCount) return [];
  const index = provenanceIndex(log);
  const link = (edge: Pick<Edge, 'seq' | 'how'>, relation: LinkRelation): ProvenanceLink => {
    const type = log.eventType(edge.seq) ?? '';
    const event = log.event(edge.seq);
    return {
      relation,
      target: edge.seq,
      targetType: type,
      targetLine: log.place(edge.seq)?.line ?? 1,
      targetSummary: oneLine(`${typeLabel(type, fmt)}: ${eventSummary(event ?? { type }, fmt, 120)}`, 160),
      how: edge.how,
    };
  };
  const out: ProvenanceLink[] = [];
  for (const e of index.sourcesOf(seq)) if (out.length < MAX_LINKS) out.push(link(e, SOURCE_RELATION[e.kind]));
  for (const e of index.derivativesOf(seq)) if (out.length < MAX_LINKS) out.push(link(e, DERIVED_RELATION[e.kind]));
  for (const l of later?.linksOf(seq) ?? [])
    if (out.length < MAX_LINKS && l.target < log.eventCount) out.push(link({ seq: l.target, how: 'recorded' }, l.relation));
  return out;
}

export function problemView(d: Diagnostic): ProblemView {
  const view: ProblemView = {
    severity: d.severity,
    rule: oneLine(d.rule, 120),
    message: oneLine(d.message, 1000),
    refusing: d.refusing === true,
    related: (d.related ?? []).slice(0, 100).map((r) => {
      const rel: ProblemView['related'][number] = { message: oneLine(r.message, 300) };
      if (r.line !== undefined && r.line >= 1) rel.line = r.line;
      if (r.seq !== undefined) rel.seq = r.seq;
      return rel;
    }),
  };
  if (d.line !== undefined && d.line >= 1) view.line = d.line;
  if (d.seq !== undefined && d.seq >= 0) view.seq = d.seq;
  return view;
}

export function eventDetail(
  log: SessionLog,
  index: TimelineIndex,
  fmt: Formatter,
  seq: number,
  problems: readonly Diagnostic[],
  later?: LaterLinks,
): EventDetail {
  const type = log.eventType(seq) ?? '';
  const event = log.event(seq);
  const data = event?.data;
  const time = eventTime(event);
  const message = messageOf(type, data);
  const offloaded = later?.offloadedImages(seq) ?? new Map<number, number>();
  const usage =
    readUsage(isLoose(data) ? data.usage : undefined) ??
    (type === 'assistant/chunk' && isLoose(data) && isLoose(data.chunk) && data.chunk.type === 'usage'
      ? readUsage(data.chunk.usage)
      : undefined);
  const raw = log.lineText(seq) ?? boundedJson(event, { maxChars: RAW_MAX }).text;
  const links = provenanceLinks(log, seq, fmt, later);
  const detail: EventDetail = {
    seq,
    type: oneLine(type, 200),
    label: typeLabel(type, fmt),
    icon: typeIcon(type),
    line: log.place(seq)?.line ?? 1,
    surface: index.surfaceMark(seq),
    blocks: contentBlocks(type, data, offloaded),
    fields: otherFields(type, data),
    raw: boundedText(raw, RAW_MAX),
    links,
    highlight: [...new Set(links.map((l) => l.target))],
    problems: problems.map(problemView),
  };
  if (time !== undefined) {
    detail.time = time;
    detail.timeText = isRealTime(time, seq, timeBounds(log))
      ? fmt.date(time)
      : fmt.t('{0} — not a real time (0, or before the session was created): left out of the Time view', fmt.count(time));
  }
  if (seq === log.protectedHead()) detail.systemHead = true;
  const stream = isLoose(data) && (type === 'assistant/message' || type === 'assistant/attempt') ? data.stream : undefined;
  if (Array.isArray(stream)) {
    const content = isLoose(message) && Array.isArray(message.content) ? message.content : undefined;
    const step = later?.stepStartOf(seq);
    const stepTime = step !== undefined ? eventTime(log.event(step)) : undefined;
    const requestAt = stepTime !== undefined && isRealTime(stepTime, step!, timeBounds(log)) ? stepTime : undefined;
    const view = streamView(stream, type === 'assistant/message' ? content : undefined, fmt, requestAt);
    if (view) detail.stream = view;
  }
  if (type === 'subagent/catalog' && isLoose(data) && typeof data.childId === 'string') {
    const child: NonNullable<EventDetail['children']>[number] = { id: oneLine(data.childId, 200), mode: oneLine(str(data.mode ?? ''), 40) };
    if (typeof data.label === 'string') child.label = oneLine(data.label, 200);
    detail.children = [child];
  }
  const turn = index.turnAt(seq);
  const step = index.stepAt(seq);
  if (turn !== undefined) detail.turn = turn;
  if (step !== undefined) detail.step = step;
  const shadowedBy = index.shadowingReplacement(seq);
  if (shadowedBy !== undefined) detail.shadowedBy = shadowedBy;
  if (isLoose(message) && message.source !== undefined) detail.sourceText = sourceSummary(message.source);
  if (usage) {
    detail.usage = {};
    for (const [k, v] of Object.entries(usage)) if (v !== undefined) (detail.usage as Record<string, number>)[k] = v;
  }
  return detail;
}
