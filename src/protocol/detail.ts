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
  | { kind: 'image'; mediaType: string; width?: number; height?: number; bytes?: number; name?: string }
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
  }),
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
  | 'derived'; // any other event derived from this one
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
});
