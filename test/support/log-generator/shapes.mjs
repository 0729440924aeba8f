// The payloads of the events the generated logs hold, in the key order dsh's writer emits (spec §2.2,
// §5, §6; v4: spec v1–v4 §4–§7). Every builder of the log generator takes its messages from here, so a
// shape is written one way in unit-test logs, samples and benchmark logs alike.
import { CHECKPOINT_GUIDANCE, CHECKPOINT_OPENING } from './dsh-material.mjs';

// ------------------------------------------------------------------------------------- turns and steps
export const turnStart = (turn) => ({ turn });
export const turnEnd = (turn, reason = { kind: 'completed' }) => ({ turn, reason });
/** step/start and step/end. */
export const stepBoundary = (turn, step) => ({ turn, step });
/** An assistant/chunk's data. */
export const chunkData = (turn, step, chunk) => ({ turn, step, chunk });

/** request/header data: the request configuration a step's model calls use. */
export const requestHeader = (header, reason) => ({ header, reason });

// ------------------------------------------------------------------------------------------ messages
/** A user-role message of text (user/message data, or a prompt spliced into the inbox). */
export function userMessage(text, source, id) {
  return { content: [{ type: 'text', text }], source, role: 'user', id };
}

export const modelSource = ({ provider, model }) => ({ kind: 'model', provider, model });

export function assistantMessage(content, source, id) {
  return { role: 'assistant', content, source, id };
}

/** assistant/message data; `usage` left out when undefined, and v2+ embeds the `stream`. */
export function assistantData(turn, step, message, usage, stream) {
  const data = { turn, step, message };
  if (usage !== undefined) data.usage = usage;
  if (stream !== undefined) data.stream = stream;
  return data;
}

export function toolCallBlock(id, name, args) {
  return { type: 'tool-call', id, name, arguments: args };
}

/** tool/call data: the call recorded as started. */
export function toolCallData(turn, step, callId, name, args) {
  return { turn, step, callId, name, arguments: args };
}

/** A v0/v1 tool result: a user-role message holding one tool-result block. */
export function toolResultMessage(callId, text, isError, id) {
  return {
    source: { kind: 'tool', callId },
    content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }], isError }],
    role: 'user',
    id,
  };
}

/** A v4 tool result: a tool-role message. */
export function toolRoleMessage(callId, text, isError, id) {
  return { id, role: 'tool', toolCallId: callId, isError, source: { kind: 'tool', callId }, content: [{ type: 'text', text }] };
}

/** tool/result data; `extra` (meta, error) follows the message. */
export function toolResultData(turn, step, message, extra = {}) {
  return { turn, step, message, ...extra };
}

// ------------------------------------------------------------------- around a realistic turn (v0 and v4)
/** agent/inbox/spliced: the prompt queued for the next turn, then taken by it once begun. */
export const inboxQueued = (prompt) => ({ target: 'next-turn', start: 0, inserted: [prompt] });
export const inboxTaken = () => ({ target: 'next-turn', start: 0, removedCount: 1, inserted: [] });

/** session/title named after the first prompt's first words. */
export function fallbackTitle(prompt, promptSeq) {
  return { title: prompt.split(' ').slice(0, 6).join(' '), messageSeqs: [promptSeq], source: { kind: 'fallback' } };
}

const PRE_TOOL_USE_HOOK = 'claude-code:PreToolUse:1';
/** hook/invoked of the PreToolUse hook before a call of `matcher`. */
export const hookInvoked = (turn, matcher) => ({
  turn,
  point: 'PreToolUse',
  dialect: 'claude-code',
  handlerId: PRE_TOOL_USE_HOOK,
  matcher,
});
/** Its hook/result: `outcome` is decision, exitCode, stderrSummary?, durationMs. */
export const hookResult = (turn, outcome) => ({ turn, point: 'PreToolUse', handlerId: PRE_TOOL_USE_HOOK, ...outcome });

/** A tool call a code-running call dispatched (`kind`: v0 `code`, v4 `ptc`), its k-th. */
export function subCall(callId, kind, k, args) {
  return { rootCallId: callId, parentCallId: callId, subCallId: `${callId}:${kind}:${k}`, name: 'bash', arguments: args };
}
/** The dispatch's end: the sub-call with its output. */
export const subCallDone = (sub, text) => ({ ...sub, isError: false, content: [{ type: 'text', text }] });

// ---------------------------------------------------------------------------------------- compaction
/** compaction/start and compaction/end of a manual compaction between turns (spec §6.2). */
export const compactionBoundary = (compactionId) => ({ compactionId, turn: null });

export function compactionSummary({ compactionId, summary, start, end, shadowedSeqs, shadowedTokenCount, route, usage }) {
  const data = {
    compactionId,
    summary,
    shadowedRange: { start, end },
    shadowedSeqs,
    shadowedTokenCount,
    provider: route.provider,
    model: route.model,
  };
  if (usage !== undefined) data.usage = usage;
  return data;
}

/**
 * The checkpoint user/message that replaces the shadowed span: the preamble (dsh's current one, or
 * with `guidance: false` its first sentence only), the summary blocks, the closing tag.
 */
export function checkpointMessage({ summary, source, id, guidance = true }) {
  const preamble = `${CHECKPOINT_OPENING}${guidance ? CHECKPOINT_GUIDANCE : ''}\n\n<compacted-summary>`;
  return {
    content: [{ type: 'text', text: preamble }, ...summary, { type: 'text', text: '</compacted-summary>' }],
    source,
    role: 'user',
    id,
  };
}

/** compaction/prune of one tool/result (spec §6.4). */
export function pruneData(seq, shadowedTokenCount) {
  return { shadowedRange: { start: seq, end: seq }, shadowedSeqs: [seq], shadowedTokenCount };
}

/** A pruner's rewrite of v0 tool/result data: only the result block's inner content changes. */
export function prunedResult(data, text) {
  const copy = JSON.parse(JSON.stringify(data));
  copy.message.content[0].content = [{ type: 'text', text }];
  return copy;
}

/** The same for a v4 tool-role result, whose content is the message's own. */
export function prunedToolRoleResult(data, text) {
  return { ...data, message: { ...data.message, content: [{ type: 'text', text }] } };
}
