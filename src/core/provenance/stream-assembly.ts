// Reassembles an assistant/message from its raw stream chunks and compares the result with the
// message's content. This is the provenance view's reassembly rule; the spec (§2.2) states the chunk
// vocabulary but not the assembler, so the rule below is ours, fitted to what dsh writes in the real
// fixtures (cancel, max-tokens, empty-response retry, packed rows, compaction recovery):
//
//  1. Chunks are grouped by block `index`. A block's kind is its block-start `blockType`, else the kind
//     its deltas imply (text-delta → text, reasoning-delta → reasoning, tool-call-delta → tool-call).
//  2. The streamed value of a block is the concatenation, in seq order, of its deltas: `text` for
//     text/reasoning deltas, `argumentsDelta` for tool-call deltas (whose `id`/`name` name the call).
//  3. A block-end carries the finished block. When the block also streamed deltas, the block-end's
//     text (or `arguments`) must equal their concatenation. A block-end without deltas is fine: dsh's
//     scripted providers emit start/end pairs only, and the block-end is then the whole record.
//  4. Message content lines up with the stream blocks in ascending index order. Each content block must
//     have the kind of its stream block and equal its value: text/reasoning `text`, tool-call `id`,
//     `name` and `arguments`; other block types must deep-equal the block-end's block.
//  5. A stream block may be missing from the content only when dsh drops it: a tool call of a stream
//     that finished with `max-tokens` (never dispatched, even when complete) or of an interrupted
//     message (`data.interrupted: true`, undispatched calls dropped), and an unfinished block (no
//     block-end) of either. Such drops are reported as notes, not mismatches.
//  6. An interrupted message is the delivered prefix of a cancelled stream: its last text/reasoning
//     content may be a prefix of what was streamed.
//  7. Tool-call arguments that differ from the deltas only in JSON formatting (both parse, to equal
//     values) are a note: dsh's DeepSeek adapter re-serializes the arguments at block-end, so a real
//     log streams `{"command": "…"}` and records `{"command":"…"}` (persistent-pwsh-tool-turn).
import type { SessionEvent } from '../types';
import { jsonEqual } from '../read/json-values';
import { stringText, valueText } from '../value-text';
import { say, type Said } from '../words';

export interface StreamBlock {
  index: number;
  kind: string | undefined;
  /**
   * The deltas' texts (text, or tool-call arguments) in order; a packed row's texts come as one part.
   * They are joined only when compared, and only when the lengths agree (see streamedText).
   */
  parts: string[];
  /** Total length of the parts. */
  streamedLength: number;
  /** The parts joined, once asked for (dropped when a part is added). */
  joined?: string;
  deltas: number;
  id?: string;
  name?: string;
  /** The block-end's finished block, when the stream finished this block. */
  end?: Record<string, unknown>;
  /** Seq of the block's first chunk (for pointing at it). */
  firstSeq: number;
}

/** The running reassembly of one stream; chunks are added in seq order. */
export class StreamAssembly {
  /** `attempt`: the id of the attempt being reassembled (-1 for chunks gathered otherwise). */
  constructor(readonly attempt = -1) {}

  /** The blocks in the order they started (a stream has a handful; usually in index order already). */
  private readonly started: StreamBlock[] = [];
  /** `reason.kind` of the last finish chunk, e.g. stop, tool-calls, max-tokens, error. */
  finishKind: string | undefined;
  finishSeq: number | undefined;
  /** Failure code of an error/aborted finish, for the notes. */
  failureCode: string | undefined;
  chunkCount = 0;
  /** Chunk shapes this rule does not know (kept as notes: the vocabulary is merge-extensible). */
  readonly unknown: number[] = [];

  /** Adds one chunk event; true when it is the stream's `finish` chunk. */
  add(event: SessionEvent): boolean {
    this.chunkCount += 1;
    const chunk = event.data?.chunk;
    if (chunk === null || typeof chunk !== 'object') {
      this.unknown.push(event.seq);
      return false;
    }
    switch (chunk.type) {
      case 'block-start':
        this.block(chunk.index, event.seq).kind ??= chunk.blockType;
        break;
      case 'text-delta':
      case 'reasoning-delta': {
        const block = this.block(chunk.index, event.seq);
        block.kind ??= chunk.type === 'text-delta' ? 'text' : 'reasoning';
        if (typeof chunk.text === 'string') addPart(block, chunk.text);
        block.deltas += 1;
        break;
      }
      case 'tool-call-delta': {
        const block = this.block(chunk.index, event.seq);
        block.kind ??= 'tool-call';
        if (typeof chunk.id === 'string') block.id ??= chunk.id;
        if (typeof chunk.name === 'string') block.name ??= chunk.name;
        if (typeof chunk.argumentsDelta === 'string') addPart(block, chunk.argumentsDelta);
        block.deltas += 1;
        break;
      }
      case 'block-end': {
        const block = this.block(chunk.index, event.seq);
        if (chunk.block !== null && typeof chunk.block === 'object') {
          block.end = chunk.block;
          block.kind ??= typeof chunk.block.type === 'string' ? chunk.block.type : undefined;
        }
        break;
      }
      case 'finish':
        this.finishKind = typeof chunk.reason?.kind === 'string' ? chunk.reason.kind : 'unknown';
        this.finishSeq = event.seq;
        this.failureCode = typeof chunk.reason?.failure?.code === 'string' ? chunk.reason.failure.code : undefined;
        return true;
      case 'usage':
        break;
      default:
        this.unknown.push(event.seq);
    }
    return false;
  }

  /** The members of a validated packed row, as `add` would take them one by one. */
  addRow(row: Record<string, any>, seq0: number, members: number): void {
    this.chunkCount += members;
    const data = row.data;
    const block = this.block(data.index, seq0);
    // A row's texts are joined as they come: one part per row, not one per member.
    if (row.type === 'tool-call-chunks') {
      block.kind ??= 'tool-call';
      if (typeof data.id === 'string') block.id ??= data.id;
      if (typeof data.name === 'string') block.name ??= data.name;
      addPart(block, (data.args as string[]).join(''));
    } else {
      block.kind ??= row.type === 'text-chunks' ? 'text' : 'reasoning';
      addPart(block, (data.texts as string[]).join(''));
    }
    block.deltas += members;
  }

  private block(index: unknown, seq: number): StreamBlock {
    // -0 and 0 are one block, as they were one key of a Map.
    const key = typeof index === 'number' ? (index === 0 ? 0 : index) : -1;
    const started = this.started;
    for (let i = 0; i < started.length; i++) if (started[i].index === key) return started[i];
    // Every field from the start: one object shape for all blocks, whatever the stream fills in later.
    const block: StreamBlock = {
      index: key,
      kind: undefined,
      parts: [],
      streamedLength: 0,
      joined: undefined,
      deltas: 0,
      id: undefined,
      name: undefined,
      end: undefined,
      firstSeq: seq,
    };
    started.push(block);
    return block;
  }

  /** Blocks in ascending index order. */
  blocks(): StreamBlock[] {
    return this.inOrder().slice();
  }

  /** The blocks in ascending index order, for reading only: the stream's own list when it is in order already (nearly always). */
  inOrder(): readonly StreamBlock[] {
    const started = this.started;
    for (let i = 1; i < started.length; i++)
      if (started[i - 1].index > started[i].index) return started.slice().sort((a, b) => a.index - b.index);
    return started;
  }

  /** True when the stream ended in a failure (the attempt produced no message of its own). */
  get failed(): boolean {
    return this.finishKind === 'error' || this.finishKind === 'aborted';
  }
}

function addPart(block: StreamBlock, part: string): void {
  block.parts.push(part);
  block.streamedLength += part.length;
  block.joined = undefined;
}

/** The concatenated deltas of a block, joined once (one flat string: comparing it is one memory compare). */
export function streamedText(block: StreamBlock): string {
  return (block.joined ??= block.parts.length === 1 ? block.parts[0] : block.parts.join(''));
}

/**
 * Whether `text` equals the concatenated deltas: compared part by part where the parts lie, so a
 * block whose text agrees (nearly every block) is never joined into a copy of its whole stream.
 */
function equalsStreamed(text: unknown, block: StreamBlock): boolean {
  if (typeof text !== 'string' || text.length !== block.streamedLength) return false;
  if (block.joined !== undefined) return text === block.joined;
  const parts = block.parts;
  if (parts.length === 1) return text === parts[0];
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!text.startsWith(part, at)) return false;
    at += part.length;
  }
  return true;
}

export interface AssemblyProblem {
  message: Said;
  /** The chunk the problem is about, when there is one. */
  seq?: number;
}

export interface AssemblyVerdict {
  mismatches: AssemblyProblem[];
  notes: AssemblyProblem[];
}

/** The streamed value a block-end records (text for text/reasoning, arguments for tool calls). */
function endValue(block: StreamBlock): string | undefined {
  const end = block.end;
  if (!end) return undefined;
  const value = block.kind === 'tool-call' ? end.arguments : end.text;
  return typeof value === 'string' ? value : undefined;
}

/** Rule 7: two argument strings that are the same JSON value written differently. */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  try {
    return jsonEqual(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}

/** Rule 3: a block-end must agree with the deltas streamed before it. */
function selfConsistency(block: StreamBlock, out: AssemblyProblem[], notes: AssemblyProblem[]): void {
  if (!block.end || block.deltas === 0) return;
  if (block.kind !== 'text' && block.kind !== 'reasoning' && block.kind !== 'tool-call') return;
  const recorded = endValue(block);
  if (!equalsStreamed(recorded, block)) {
    const streamed = streamedText(block);
    if (block.kind === 'tool-call' && sameJson(recorded, streamed)) {
      notes.push({
        seq: block.firstSeq,
        message: say('block {0} (tool-call): block-end arguments are the streamed JSON re-serialized', block.index),
      });
    } else {
      out.push({
        seq: block.firstSeq,
        message:
          block.kind === 'tool-call'
            ? say(
                'block {0} ({1}): its block-end arguments differ from its {2} concatenated deltas {3}',
                block.index,
                block.kind,
                block.deltas,
                difference(recorded, streamed),
              )
            : say(
                'block {0} ({1}): its block-end text differs from its {2} concatenated deltas {3}',
                block.index,
                block.kind,
                block.deltas,
                difference(recorded, streamed),
              ),
      });
    }
  }
  if (block.kind === 'tool-call' && block.id !== undefined && block.end.id !== block.id) {
    out.push({
      seq: block.firstSeq,
      message: say(
        'block {0} (tool-call): block-end id {1} differs from the delta id {2}',
        block.index,
        quote(block.end.id),
        quote(block.id),
      ),
    });
  }
}

/** The value the stream gives for a block: the block-end's when finished, else the deltas so far. */
function streamValue(block: StreamBlock): string {
  return endValue(block) ?? streamedText(block);
}

/** The content block a problem is about: a field and a block type, the same in every language (built only for a problem). */
function where(position: number, block: StreamBlock): string {
  return `content[${position}] (${block.kind})`;
}

function compareBlock(
  block: StreamBlock,
  content: Record<string, any>,
  position: number,
  prefixAllowed: boolean,
  out: AssemblyProblem[],
  notes: AssemblyProblem[],
): void {
  if (block.kind === 'text' || block.kind === 'reasoning') {
    const expected = streamValue(block);
    const text = typeof content.text === 'string' ? content.text : undefined;
    if (text === expected) return;
    if (prefixAllowed && text !== undefined && expected.startsWith(text)) return;
    out.push({
      seq: block.firstSeq,
      message: say("{0} text does not equal the stream's block {1} {2}", where(position, block), block.index, difference(text, expected)),
    });
    return;
  }
  if (block.kind === 'tool-call') {
    const expected = streamValue(block);
    const id = block.end?.id ?? block.id;
    const name = block.end?.name ?? block.name;
    if (content.arguments !== expected) {
      if (sameJson(content.arguments, expected))
        notes.push({ seq: block.firstSeq, message: say('{0} arguments are the streamed JSON re-serialized', where(position, block)) });
      else
        out.push({
          seq: block.firstSeq,
          message: say(
            "{0} arguments do not equal the stream's block {1} {2}",
            where(position, block),
            block.index,
            difference(content.arguments, expected),
          ),
        });
    }
    if (id !== undefined && content.id !== id)
      out.push({
        seq: block.firstSeq,
        message: say("{0} id {1} differs from the stream's {2}", where(position, block), quote(content.id), quote(id)),
      });
    if (name !== undefined && content.name !== name)
      out.push({
        seq: block.firstSeq,
        message: say("{0} name {1} differs from the stream's {2}", where(position, block), quote(content.name), quote(name)),
      });
    return;
  }
  if (block.end && !jsonEqual(block.end, content))
    out.push({ seq: block.firstSeq, message: say("{0} differs from the stream's block-end {1}", where(position, block), block.index) });
}

/**
 * Compares a message's content with the assembled stream (rules 1–6 above).
 * `interrupted` is the message's `data.interrupted === true`.
 */
export function compareAssembly(assembly: StreamAssembly, content: unknown, interrupted: boolean): AssemblyVerdict {
  const mismatches: AssemblyProblem[] = [];
  const notes: AssemblyProblem[] = [];
  const blocks = assembly.inOrder();
  for (const block of blocks) selfConsistency(block, mismatches, notes);
  if (!Array.isArray(content)) return { mismatches: [{ message: say('message content is not an array') }], notes };
  const maxTokens = assembly.finishKind === 'max-tokens';
  let position = 0;
  for (const block of blocks) {
    const next = content[position] as Record<string, any> | undefined;
    if (next && typeof next === 'object' && next.type === block.kind) {
      // Rule 6: only the last delivered text block of an interrupted message can be cut short.
      compareBlock(block, next, position, interrupted && position === content.length - 1, mismatches, notes);
      position += 1;
      continue;
    }
    const unfinished = block.end === undefined;
    const droppable = (maxTokens || interrupted) && (block.kind === 'tool-call' || unfinished);
    if (droppable) {
      const why = interrupted ? say('the message was interrupted') : say('the stream hit max-tokens');
      notes.push({
        seq: block.firstSeq,
        message: unfinished
          ? say('stream block {0} ({1}, unfinished) is not in the content: dropped because {2}', block.index, stringText(block.kind), why)
          : say('stream block {0} ({1}) is not in the content: dropped because {2}', block.index, stringText(block.kind), why),
      });
      continue;
    }
    mismatches.push({
      seq: block.firstSeq,
      message:
        next && typeof next === 'object'
          ? say(
              'stream block {0} ({1}) has no matching content block (content[{2}] is {3})',
              block.index,
              stringText(block.kind),
              position,
              stringText(next.type),
            )
          : say(
              'stream block {0} ({1}) has no matching content block (content[{2}] is missing)',
              block.index,
              stringText(block.kind),
              position,
            ),
    });
  }
  for (; position < content.length; position++) {
    const extra = content[position] as Record<string, any> | undefined;
    mismatches.push({ message: say('content[{0}] ({1}) has no stream block', position, stringText(extra?.type)) });
  }
  if (interrupted) notes.push({ message: say('interrupted message: the delivered prefix of a cancelled stream') });
  for (const seq of assembly.unknown) notes.push({ seq, message: say('chunk of an unknown shape (not part of the reassembly)') });
  return { mismatches, notes };
}

/** Where two strings part: "at character N: "…a…" vs "…b…"" (short windows, for a one-line message). */
function difference(a: unknown, b: unknown): Said {
  if (typeof a !== 'string' || typeof b !== 'string') return say('({0} vs {1})', quote(a), quote(b));
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const from = Math.max(0, at - 12);
  const window = (s: string) => `${from > 0 ? '…' : ''}${JSON.stringify(s.slice(from, at + 24))}${at + 24 < s.length ? '…' : ''}`;
  return say('(at character {0} of {1} vs {2}: {3} vs {4})', at, a.length, b.length, window(a), window(b));
}

function quote(value: unknown): string {
  return valueText(value, 80);
}
