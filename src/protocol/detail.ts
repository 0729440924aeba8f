// The inspector's view of one event: its readable content, its provenance links both ways (and what to
// mark in the list for them), its problems and its raw line. Asked for with `eventDetail`.
// Plain JSON data only. Every string in here has already been made safe to show by the host's
// presentation layer (single line where it says so, bounded, bidi controls neutralised); the webview
// still renders all of it as text, never as HTML.
import { arrayOf, bool, count, line, literal, num, optional, shape, str, tagged, type Validator } from './validate';
import { eventHeadingFields, isSeverityMark, type EventHeading, type SeverityMark } from './rows';

export interface BoundedText {
  text: string;
  /** True when `text` was cut; `length` is the full length in UTF-16 units. */
  truncated: boolean;
  length: number;
}
export const isBoundedText: Validator<BoundedText> = shape<BoundedText>({ text: str, truncated: bool, length: count });

export type ContentBlockView =
  | { kind: 'text'; text: BoundedText }
  | { kind: 'reasoning'; text: BoundedText }
  | { kind: 'toolCall'; name: string; callId: string; /** pretty-printed JSON when the arguments parse */ arguments: BoundedText }
  | { kind: 'toolResult'; callId: string; isError: boolean; content: BoundedText }
  | { kind: 'image'; mediaType: string; width?: number; height?: number; bytes?: number; name?: string; offloadedBy?: number }
  /** A developer message's tool addition or removal (v4). */
  | { kind: 'toolChange'; added: boolean; toolName: string }
  | { kind: 'other'; blockType: string; json: BoundedText };
export const isContentBlockView: Validator<ContentBlockView> = tagged<ContentBlockView, 'kind'>('kind', {
  text: shape({ kind: literal('text'), text: isBoundedText }),
  reasoning: shape({ kind: literal('reasoning'), text: isBoundedText }),
  toolCall: shape({ kind: literal('toolCall'), name: str, callId: str, arguments: isBoundedText }),
  toolResult: shape({ kind: literal('toolResult'), callId: str, isError: bool, content: isBoundedText }),
  image: shape({
    kind: literal('image'),
    mediaType: str,
    width: optional(num),
    height: optional(num),
    bytes: optional(num),
    name: optional(str),
    offloadedBy: optional(count),
  }),
  toolChange: shape({ kind: literal('toolChange'), added: bool, toolName: str }),
  other: shape({ kind: literal('other'), blockType: str, json: isBoundedText }),
});

export interface UsageView {
  input?: number;
  cachedInput?: number;
  output?: number;
  reasoning?: number;
  total?: number;
}
export const isUsageView: Validator<UsageView> = shape<UsageView>({
  input: optional(num),
  cachedInput: optional(num),
  output: optional(num),
  reasoning: optional(num),
  total: optional(num),
});

/** How two events are related (from the selected event's point of view). */
export type LinkRelation =
  | 'chunk' // a chunk this message was streamed from
  | 'message' // the message this chunk went into
  | 'requestedBy' // the assistant/message that asked for this tool/call
  | 'call' // a tool/call this message asked for
  | 'result' // a tool/result answering this call
  | 'answers' // the tool/call this result answers
  | 'shadowed' // a node this replacement shadowed
  | 'shadowedBy' // the replacement that shadowed this node
  | 'source' // any other recorded source
  | 'derived' // any other event derived from this one
  | 'requestHeader' // the request header a developer message's tool changes bind to
  | 'toolChange' // a developer message that changes this request header's tools
  | 'step' // the step/start of the step an attempt belongs to
  | 'settledBy' // the assistant/message that settled the step after this attempt
  | 'attempt' // an attempt of this message's step that did not settle
  | 'offloads' // a message whose images this image/offload offloads
  | 'offloadedBy'; // the image/offload that offloads this message's images
export const isLinkRelation: Validator<LinkRelation> = literal(
  'chunk',
  'message',
  'requestedBy',
  'call',
  'result',
  'answers',
  'shadowed',
  'shadowedBy',
  'source',
  'derived',
  'requestHeader',
  'toolChange',
  'step',
  'settledBy',
  'attempt',
  'offloads',
  'offloadedBy',
);

export interface ProvenanceLink {
  relation: LinkRelation;
  /** The event the link leads to. */
  target: number;
  targetType: string;
  targetLine: number;
  /** One line, bounded. */
  targetSummary: string;
  /** Recorded in the log, or inferred (by call id, by turn/step). */
  how: 'recorded' | 'inferred';
}
export const isProvenanceLink: Validator<ProvenanceLink> = shape<ProvenanceLink>({
  relation: isLinkRelation,
  target: count,
  targetType: str,
  targetLine: line,
  targetSummary: str,
  how: literal('recorded', 'inferred'),
});

/** A problem as the editor shows it: everything of ours in 1-based file lines. */
export interface ProblemView {
  severity: SeverityMark;
  rule: string;
  /** One sentence; when it quotes dsh's own message it says whose numbering that message uses. */
  message: string;
  line?: number;
  seq?: number;
  refusing: boolean;
  related: { message: string; line?: number; seq?: number }[];
}
export const isProblemView: Validator<ProblemView> = shape<ProblemView>({
  severity: isSeverityMark,
  rule: str,
  message: str,
  line: optional(line),
  seq: optional(count),
  refusing: bool,
  related: arrayOf(shape({ message: str, line: optional(line), seq: optional(count) })),
});

/** One record of a stream inside a message (v2 and on). */
export interface StreamRecordView {
  /** Position in the stream array. */
  position: number;
  /** Packed text, reasoning or tool-call pieces, or a single chunk (block start and end, usage, finish). */
  kind: 'text' | 'reasoning' | 'toolCall' | 'chunk';
  /** What it is, in a few words ("text pieces", "block-end", "finish error OVERLOADED"). */
  what: string;
  /** The content block it streamed (its `index`). */
  block?: number;
  /** Its time (a packed record's first piece), ms since the epoch. */
  time?: number;
  /** Its time after the stream's first record ("+12 ms"). */
  offsetText?: string;
  /** A packed record: how many pieces, over how long, and what they spell (bounded). */
  pieces?: number;
  spanText?: string;
  text?: BoundedText;
  /** A tool-call record's tool and call. */
  name?: string;
  callId?: string;
  /** Its pieces, with the block's others, do not spell what the message holds. */
  mismatch?: boolean;
}
export const isStreamRecordView: Validator<StreamRecordView> = shape<StreamRecordView>({
  position: count,
  kind: literal('text', 'reasoning', 'toolCall', 'chunk'),
  what: str,
  block: optional(count),
  time: optional(num),
  offsetText: optional(str),
  pieces: optional(count),
  spanText: optional(str),
  text: optional(isBoundedText),
  name: optional(str),
  callId: optional(str),
  mismatch: optional(bool),
});

export interface StreamView {
  records: StreamRecordView[];
  /** Records beyond those shown. */
  omitted: number;
  /** Time to first token (from the step's request) and decoding (first token to last record), worded. */
  firstTokenText?: string;
  decodingText?: string;
  /** Blocks whose streamed pieces do not spell the message's content. */
  mismatches: { block: number; message: string }[];
}
export const isStreamView: Validator<StreamView> = shape<StreamView>({
  records: arrayOf(isStreamRecordView, 1000),
  omitted: count,
  firstTokenText: optional(str),
  decodingText: optional(str),
  mismatches: arrayOf(shape({ block: count, message: str }), 1000),
});

/** A child session a parent's `subagent/catalog` names. */
export interface ChildSessionView {
  id: string;
  mode: string;
  label?: string;
}
export const isChildSessionView: Validator<ChildSessionView> = shape<ChildSessionView>({ id: str, mode: str, label: optional(str) });

export interface EventDetail extends EventHeading {
  /** The readable content of the event's message (text, reasoning, tool calls, results, images). */
  blocks: ContentBlockView[];
  /** The message's source ("model openai/gpt-5", "tool call_1", …) when it has one. */
  sourceText?: string;
  usage?: UsageView;
  /** Other fields of `data` as `name: value` lines, bounded. */
  fields: { name: string; value: string }[];
  /** The raw JSON line as written, bounded. */
  raw: BoundedText;
  /** Everything linked to this event, both directions. */
  links: ProvenanceLink[];
  /** Seqs to mark in the list while this event is selected (its chunks, its call and result, …). */
  highlight: number[];
  problems: ProblemView[];
  /** The stream inside an assistant/message or assistant/attempt (v2 and on). */
  stream?: StreamView;
  /** The child sessions a subagent/catalog entry names (each opened by `openSession`). */
  children?: ChildSessionView[];
}
export const isEventDetail: Validator<EventDetail> = shape<EventDetail>({
  ...eventHeadingFields,
  blocks: arrayOf(isContentBlockView),
  sourceText: optional(str),
  usage: optional(isUsageView),
  fields: arrayOf(shape({ name: str, value: str })),
  raw: isBoundedText,
  links: arrayOf(isProvenanceLink),
  highlight: arrayOf(count),
  problems: arrayOf(isProblemView),
  stream: optional(isStreamView),
  children: optional(arrayOf(isChildSessionView, 100)),
});
