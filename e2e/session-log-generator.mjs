// Writes valid dsh v0 session logs of any size, for the sample sessions, the live-append tests and the
// large-log benchmarks. The shapes follow the format spec (§1.3 header, §2.2 payloads, §3 rules):
// every turn is turn/start, step/start, user/message (append), request/header, assistant/message with a
// tool-call, tool/call, tool/result answering it, step/end, a second step with the final text, turn/end.
// Output is deterministic: the same options give the same bytes.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const PROVIDER = 'deepseek-official';
const MODEL = 'deepseek-v4-flash';

/** A session header line as dsh's writer emits it (key order included). */
export function headerLine({ id, createdAt = 1786348800000, cwd = '/home/dev/project', delegationDepth = 0 } = {}) {
  const header = { type: 'session', version: 0, id, createdAt, cwd };
  if (delegationDepth !== undefined) header.delegationDepth = delegationDepth;
  return JSON.stringify(header);
}

const id = (kind, turn, n) => `${kind}-${String(turn).padStart(6, '0')}-${n}`;

/** Builds event lines for a log; `next*` methods return the JSONL lines (without newlines). */
export class SessionLogBuilder {
  constructor({ startTime = 1786348800000, payloadBytes = 0 } = {}) {
    this.seq = 0;
    this.time = startTime;
    this.turn = 0;
    this.padding = payloadBytes > 0 ? 'x'.repeat(payloadBytes) : '';
  }

  event(type, data, extra = {}) {
    const line = JSON.stringify({ type, seq: this.seq++, time: (this.time += 7), data, ...extra });
    return line;
  }

  /** A whole closed turn (or, with `open`, a turn that stops after the tool call: an agent mid-work). */
  turnLines({ open = false } = {}) {
    const turn = ++this.turn;
    const callId = id('call', turn, 1);
    const lines = [];
    lines.push(this.event('turn/start', { turn }));
    lines.push(this.event('step/start', { turn, step: 1 }));
    lines.push(this.event('user/message', {
      content: [{ type: 'text', text: `Turn ${turn}: list the files in src and summarise them.` }],
      source: { kind: 'user' }, role: 'user', id: id('user', turn, 1),
    }, { surfaceOp: 'append' }));
    lines.push(this.event('request/header', {
      header: { config: { provider: PROVIDER, model: MODEL } },
      reason: turn === 1 ? 'initial' : 'change',
    }));
    const args = JSON.stringify({ command: 'ls src' });
    lines.push(this.event('assistant/message', {
      turn, step: 1,
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'I will look at the folder first.' }, { type: 'tool-call', id: callId, name: 'bash', arguments: args }],
        source: { kind: 'model', provider: PROVIDER, model: MODEL }, id: id('assistant', turn, 1),
      },
      usage: { inputTokens: 120 + turn, outputTokens: 18 },
    }, { surfaceOp: 'append' }));
    const callSeq = this.seq;
    lines.push(this.event('tool/call', { turn, step: 1, callId, name: 'bash', arguments: args }));
    if (open) return lines;
    lines.push(this.event('tool/result', {
      turn, step: 1,
      message: {
        source: { kind: 'tool', callId },
        content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: `main.ts\nutil.ts\n${this.padding}` }], isError: false }],
        role: 'user', id: id('result', turn, 1),
      },
    }, { sourceEventSeqs: [callSeq], surfaceOp: 'append' }));
    lines.push(this.event('step/end', { turn, step: 1 }));
    lines.push(this.event('step/start', { turn, step: 2 }));
    lines.push(this.event('assistant/message', {
      turn, step: 2,
      message: {
        role: 'assistant', content: [{ type: 'text', text: `src has two files: main.ts and util.ts (turn ${turn}).` }],
        source: { kind: 'model', provider: PROVIDER, model: MODEL }, id: id('assistant', turn, 2),
      },
      usage: { inputTokens: 160 + turn, outputTokens: 14 },
    }, { surfaceOp: 'append' }));
    lines.push(this.event('step/end', { turn, step: 2 }));
    lines.push(this.event('turn/end', { turn, reason: { kind: 'completed' } }));
    return lines;
  }

  /** The lines that finish a turn left open by `turnLines({ open: true })`. */
  closeOpenTurnLines() {
    const turn = this.turn;
    const callId = id('call', turn, 1);
    return [
      this.event('tool/result', {
        turn, step: 1,
        message: {
          source: { kind: 'tool', callId },
          content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: 'main.ts\nutil.ts' }], isError: false }],
          role: 'user', id: id('result', turn, 1),
        },
      }, { sourceEventSeqs: [this.seq - 1], surfaceOp: 'append' }),
      this.event('step/end', { turn, step: 1 }),
      this.event('turn/end', { turn, reason: { kind: 'completed' } }),
    ];
  }
}

/**
 * Streams a log to `file` until it has at least `events` events or `bytes` bytes, whichever is given.
 * `payloadBytes` pads each tool result, to reach a size with fewer events. Returns what was written.
 */
export async function writeGeneratedLog(file, { sessionId, events, bytes, payloadBytes = 0, openLastTurn = false }) {
  const out = createWriteStream(file);
  const builder = new SessionLogBuilder({ payloadBytes });
  let written = 0;
  const write = async (text) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(headerLine({ id: sessionId }) + '\n');
  let batch = '';
  let batchBytes = 0;
  const enough = () => (events !== undefined && builder.seq >= events) || (bytes !== undefined && written + batchBytes >= bytes);
  while (!enough()) {
    const text = builder.turnLines().join('\n') + '\n';
    batch += text;
    batchBytes += Buffer.byteLength(text);
    if (batchBytes > 1 << 20) {
      await write(batch);
      batch = '';
      batchBytes = 0;
    }
  }
  if (batch) await write(batch);
  if (openLastTurn) await write(builder.turnLines({ open: true }).join('\n') + '\n');
  out.end();
  await once(out, 'finish');
  return { file, events: builder.seq, turns: builder.turn, bytes: written };
}
