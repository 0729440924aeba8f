// Uniform turns (prompt, one bash call and its result, an answer), handed out line by line: the
// committed sample sessions, the live-follow and large-log end-to-end tests, and logs of any size
// streamed to a file. Every event is 7 ms after the one before; ids name the turn
// (`user-000003-1`, `call-000003-1`).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { EventWriter, headerLine } from './event-writer.mjs';
import { DSH_ROUTE } from './dsh-material.mjs';
import * as shape from './shapes.mjs';

/** The header fields of the sample sessions and uniform generated logs. */
export const SAMPLE_HEADER = { createdAt: 1786348800000, cwd: '/home/dev/project', delegationDepth: 0 };

const SOURCE_MODEL = shape.modelSource(DSH_ROUTE);
const turnId = (kind, turn, n) => `${kind}-${String(turn).padStart(6, '0')}-${n}`;

export class TurnLogBuilder {
  /** `firstPrompt` replaces turn 1's prompt (a sessions list shows it as the title). */
  constructor({ startTime = 1786348800000, payloadBytes = 0, firstPrompt } = {}) {
    /** The writer under the builder; scripts that write their own events take its lines with `take()`. */
    this.writer = new EventWriter({ time: startTime, advance: () => 7 });
    /** The last turn begun; a script writing its own turn counts it up. */
    this.turn = 0;
    this.padding = payloadBytes > 0 ? 'x'.repeat(payloadBytes) : '';
    this.firstPrompt = firstPrompt;
  }

  /** The seq of the next event (after a whole log: its event count). */
  get seq() {
    return this.writer.seq;
  }

  /** One event's line. */
  event(type, data, extra = {}) {
    this.writer.event(type, data, extra);
    return this.writer.take()[0];
  }

  /** A whole closed turn (or, with `open`, a turn that stops after the tool call: an agent mid-work). */
  turnLines({ open = false } = {}) {
    const w = this.writer;
    const turn = ++this.turn;
    const callId = turnId('call', turn, 1);
    w.event('turn/start', shape.turnStart(turn));
    w.event('step/start', shape.stepBoundary(turn, 1));
    const prompt = (turn === 1 && this.firstPrompt) || `Turn ${turn}: list the files in src and summarise them.`;
    w.append('user/message', shape.userMessage(prompt, { kind: 'user' }, turnId('user', turn, 1)));
    w.event('request/header', shape.requestHeader({ config: { ...DSH_ROUTE } }, turn === 1 ? 'initial' : 'change'));
    const args = JSON.stringify({ command: 'ls src' });
    const content = [{ type: 'text', text: 'I will look at the folder first.' }, shape.toolCallBlock(callId, 'bash', args)];
    const usage = { inputTokens: 120 + turn, outputTokens: 18 };
    const message = shape.assistantMessage(content, SOURCE_MODEL, turnId('assistant', turn, 1));
    w.append('assistant/message', shape.assistantData(turn, 1, message, usage));
    const callSeq = w.event('tool/call', shape.toolCallData(turn, 1, callId, 'bash', args));
    if (open) return w.take();
    this.#result(turn, callSeq, `main.ts\nutil.ts\n${this.padding}`);
    w.event('step/end', shape.stepBoundary(turn, 1));
    w.event('step/start', shape.stepBoundary(turn, 2));
    const answer = [{ type: 'text', text: `src has two files: main.ts and util.ts (turn ${turn}).` }];
    const answerUsage = { inputTokens: 160 + turn, outputTokens: 14 };
    w.append(
      'assistant/message',
      shape.assistantData(turn, 2, shape.assistantMessage(answer, SOURCE_MODEL, turnId('assistant', turn, 2)), answerUsage),
    );
    w.event('step/end', shape.stepBoundary(turn, 2));
    w.event('turn/end', shape.turnEnd(turn));
    return w.take();
  }

  /** The lines that finish a turn left open by `turnLines({ open: true })`. */
  closeOpenTurnLines() {
    const turn = this.turn;
    this.#result(turn, this.seq - 1, 'main.ts\nutil.ts');
    this.writer.event('step/end', shape.stepBoundary(turn, 1));
    this.writer.event('turn/end', shape.turnEnd(turn));
    return this.writer.take();
  }

  /** The bash call's result, citing its tool/call. */
  #result(turn, callSeq, text) {
    const callId = turnId('call', turn, 1);
    const message = shape.toolResultMessage(callId, text, false, turnId('result', turn, 1));
    this.writer.append('tool/result', shape.toolResultData(turn, 1, message), [callSeq]);
  }
}

/**
 * Streams a log to `file` until it has at least `events` events or `bytes` bytes, whichever is given.
 * `payloadBytes` pads each tool result, to reach a size with fewer events. Returns what was written.
 */
export async function writeGeneratedLog(file, { sessionId, events, bytes, payloadBytes = 0, openLastTurn = false }) {
  const out = createWriteStream(file);
  const builder = new TurnLogBuilder({ payloadBytes });
  let written = 0;
  const write = async (text) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(headerLine({ ...SAMPLE_HEADER, id: sessionId }) + '\n');
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
