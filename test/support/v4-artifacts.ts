// Hand-built v4 (and v3) artifacts for the generations layer's unit tests: a small valid session in
// the shape dsh 0.1.7 writes, and helpers to change one thing in it. Events are plain objects in the
// key order dsh writes them.
import { strict as assert } from 'node:assert';
import { SessionFormatError, type Artifact, type FormatEvent, type LogicalHeader } from '../../src/core/format';
import { restoreV4 } from '../../src/core/format/v3-to-v4';

/** An event whose payload tests reach into freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseEvent = FormatEvent & { data: any };

export const PROVIDER = 'deepseek-official';
export const MODEL = 'deepseek-flash';

/** Appends events with consecutive seqs and increasing times. */
export class EventList {
  readonly events: LooseEvent[] = [];
  private time = 1_790_000_000_000;

  add(type: string, data: unknown, extra: Partial<LooseEvent> = {}): number {
    const seq = this.events.length;
    this.time += 5;
    this.events.push({ type, seq, time: this.time, data, ...extra });
    return seq;
  }
}

export function v4Header(fields: Partial<LogicalHeader> = {}): LogicalHeader {
  return {
    version: 4,
    id: 'session-v4',
    createdAt: 1_790_000_000_000,
    cwd: '/home/u/project',
    isSeeded: false,
    delegationDepth: 0,
    ...fields,
  };
}

export const TOOLS = [
  { name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
  {
    name: 'read',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
    deferLoading: true,
  },
];

export function systemMessage(turn: number, step: number, id: string, text?: string): unknown {
  return {
    turn,
    step,
    message: { role: 'system', content: text === undefined ? [] : [{ type: 'text', text }], source: { kind: 'system-prompt' }, id },
  };
}

export function userMessage(id: string, text: string, source: Record<string, unknown> = { kind: 'user' }): unknown {
  return { content: [{ type: 'text', text }], source, role: 'user', id };
}

export function assistantMessage(turn: number, step: number, id: string, content: unknown[]): unknown {
  return {
    turn,
    step,
    message: { role: 'assistant', content, source: { kind: 'model', provider: PROVIDER, model: MODEL }, id },
    usage: { inputTokens: 10, outputTokens: 3 },
    stream: [{ type: 'chunk', time: 1, chunk: { type: 'finish', reason: { kind: 'stop' } } }],
  };
}

export function toolResult(
  turn: number,
  step: number,
  callId: string,
  id: string,
  text: string,
  extra: Record<string, unknown> = {},
): unknown {
  return {
    turn,
    step,
    message: {
      role: 'tool',
      source: { kind: 'tool', callId },
      toolCallId: callId,
      content: [{ type: 'text', text }],
      isError: false,
      id,
      ...extra,
    },
  };
}

export interface BaseLog {
  list: EventList;
  /** Seqs of the named events of the base log. */
  seq: {
    head: number;
    prompt: number;
    header: number;
    developer: number;
    call: number;
    toolCall: number;
    result: number;
    answer: number;
  };
}

/**
 * One closed turn: the protected system head, the prompt, a request header with two tools (one
 * deferred), a developer message adding the deferred tool, an assistant call of bash, its start and
 * its tool-role result, then the answer in a second step.
 */
export function baseV4Log(): BaseLog {
  const list = new EventList();
  list.add('turn/start', { turn: 1 });
  list.add('step/start', { turn: 1, step: 1 });
  const head = list.add('system/message', systemMessage(1, 1, 's1', 'You are an agent.'), { surfaceOp: 'append' });
  const prompt = list.add('user/message', userMessage('u1', 'list the files'), { surfaceOp: 'append' });
  list.add('session/title', { title: 'list the files', messageSeqs: [prompt], source: { kind: 'fallback' } });
  const header = list.add('request/header', { header: { config: { provider: PROVIDER, model: MODEL }, tools: TOOLS }, reason: 'initial' });
  const developer = list.add(
    'developer/message',
    {
      turn: 1,
      step: 1,
      headerSeq: header,
      message: { role: 'developer', content: [{ type: 'tool-addition', toolName: 'read' }], source: { kind: 'tools-discovery' }, id: 'd1' },
    },
    { surfaceOp: 'append' },
  );
  list.add('request/context', { provider: PROVIDER, model: MODEL, contextWindow: 128000 });
  const call = list.add(
    'assistant/message',
    assistantMessage(1, 1, 'a1', [{ type: 'tool-call', id: 'call-1', name: 'bash', arguments: '{"command":"ls"}' }]),
    { surfaceOp: 'append' },
  );
  const toolCall = list.add('tool/call', { turn: 1, step: 1, callId: 'call-1', name: 'bash', arguments: '{"command":"ls"}' });
  const result = list.add('tool/result', toolResult(1, 1, 'call-1', 'r1', 'a.txt\n'), { sourceEventSeqs: [toolCall], surfaceOp: 'append' });
  list.add('step/end', { turn: 1, step: 1 });
  list.add('step/start', { turn: 1, step: 2 });
  const answer = list.add('assistant/message', assistantMessage(1, 2, 'a2', [{ type: 'text', text: 'One file: a.txt.' }]), {
    surfaceOp: 'append',
  });
  list.add('step/end', { turn: 1, step: 2 });
  list.add('turn/end', { turn: 1, reason: { kind: 'completed' } });
  return { list, seq: { head, prompt, header, developer, call, toolCall, result, answer } };
}

export function artifactOf(events: readonly FormatEvent[], header: Partial<LogicalHeader> = {}, inheritedEventCount = 0): Artifact {
  return { header: v4Header(header), inheritedEventCount, events: [...events] };
}

/** A deep copy of the events, with `change` applied to the copy of the event at `seq`. */
export function withEvent(events: readonly FormatEvent[], seq: number, change: (event: LooseEvent) => void): LooseEvent[] {
  const copy = structuredClone(events) as LooseEvent[];
  change(copy[seq]);
  return copy;
}

/** A deep copy with `event` inserted at `seq`, later seqs moved up (references are not remapped). */
export function withInserted(events: readonly FormatEvent[], seq: number, event: Omit<FormatEvent, 'seq'>): LooseEvent[] {
  const copy = structuredClone(events) as LooseEvent[];
  copy.splice(seq, 0, { ...event, seq } as LooseEvent);
  copy.forEach((item, index) => (item.seq = index));
  return copy;
}

// ------------------------------------------------------------------------------------------- v3 logs
export function v3Header(fields: Partial<LogicalHeader> = {}): LogicalHeader {
  return { ...v4Header(fields), version: 3, ...fields };
}

/** A v3 tool result: a user-role message holding one `tool-result` block. */
export function v3ToolResult(turn: number, step: number, callId: string, id: string, text: string, isError = false): unknown {
  return {
    turn,
    step,
    message: {
      source: { kind: 'tool', callId },
      content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }], isError }],
      role: 'user',
      id,
    },
  };
}

/** One closed v3 turn: the empty migrated head replaced by the prompt, the prompt, a tool call and its result, the answer. */
export interface BaseV3Log {
  list: EventList;
  seq: {
    head: number;
    prompt: number;
    headReplacement: number;
    header: number;
    call: number;
    toolCall: number;
    result: number;
    answer: number;
  };
}

export function baseV3Log(): BaseV3Log {
  const list = new EventList();
  list.add('turn/start', { turn: 1 });
  list.add('step/start', { turn: 1, step: 1 });
  const plugin = { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' };
  const head = list.add(
    'system/message',
    { turn: 1, step: 1, message: { id: 's1', role: 'system', source: plugin, content: [] } },
    { surfaceOp: 'append' },
  );
  const prompt = list.add('user/message', userMessage('u1', 'list the files'), { surfaceOp: 'append' });
  list.add('session/title', { title: 'list the files', messageSeqs: [prompt], source: { kind: 'fallback' } });
  const headReplacement = list.add(
    'system/message',
    { turn: 1, step: 1, message: { id: 's2', role: 'system', source: plugin, content: [{ type: 'text', text: 'You are an agent.' }] } },
    { surfaceOp: { op: 'replace', startSeq: head, endSeq: head }, sourceEventSeqs: [head] },
  );
  const header = list.add('request/header', {
    header: { config: { provider: PROVIDER, model: MODEL }, tools: [TOOLS[0]] },
    reason: 'initial',
  });
  const call = list.add(
    'assistant/message',
    assistantMessage(1, 1, 'a1', [{ type: 'tool-call', id: 'call-1', name: 'bash', arguments: '{"command":"ls"}' }]),
    { surfaceOp: 'append' },
  );
  const toolCall = list.add('tool/call', { turn: 1, step: 1, callId: 'call-1', name: 'bash', arguments: '{"command":"ls"}' });
  const result = list.add('tool/result', v3ToolResult(1, 1, 'call-1', 'r1', 'a.txt\n'), {
    sourceEventSeqs: [toolCall],
    surfaceOp: 'append',
  });
  list.add('step/end', { turn: 1, step: 1 });
  list.add('step/start', { turn: 1, step: 2 });
  const answer = list.add('assistant/message', assistantMessage(1, 2, 'a2', [{ type: 'text', text: 'One file.' }]), {
    surfaceOp: 'append',
  });
  list.add('step/end', { turn: 1, step: 2 });
  list.add('turn/end', { turn: 1, reason: { kind: 'completed' } });
  return { list, seq: { head, prompt, headReplacement, header, call, toolCall, result, answer } };
}

// ------------------------------------------------------------------------------------- restore checks
/** The v4 restore refuses the artifact with exactly this message (or one matching it) and error class. */
export function expectRefused(artifact: Artifact, message: string | RegExp, errorClass: Function = SessionFormatError): void {
  assert.throws(
    () => restoreV4(artifact),
    (error: Error) => {
      assert.ok(error instanceof errorClass, `${error.name}: ${error.message}`);
      if (typeof message === 'string') assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    },
  );
}

/** The v4 restore accepts the artifact (and returns it as it is). */
export function expectLoads(artifact: Artifact): void {
  assert.equal(restoreV4(artifact), artifact);
}

/** Seqs made dense again after removing or swapping events (references are the test's business). */
export function fixSeqs(list: LooseEvent[]): LooseEvent[] {
  list.forEach((e, i) => (e.seq = i));
  return list;
}

/** After an insertion at `at`, references to events at or after it move up by one. */
export function fixReferencesAfterInsert(list: LooseEvent[], at: number): LooseEvent[] {
  const move = (seq: unknown) => (typeof seq === 'number' && seq >= at ? seq + 1 : seq);
  for (const e of list) {
    if (e.seq === at) continue;
    if (Array.isArray(e.sourceEventSeqs)) e.sourceEventSeqs = e.sourceEventSeqs.map(move) as number[];
    const data = e.data as any;
    if (e.type === 'session/title' || e.type === 'session/title-llm-request') data.messageSeqs = data.messageSeqs.map(move);
    if (e.type === 'developer/message' && data.headerSeq !== undefined) data.headerSeq = move(data.headerSeq);
    if (e.surfaceOp && typeof e.surfaceOp === 'object') {
      const op = e.surfaceOp as any;
      op.startSeq = move(op.startSeq);
      op.endSeq = move(op.endSeq);
    }
  }
  return list;
}
