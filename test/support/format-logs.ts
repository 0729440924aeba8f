// Small v0/v1 logs written by hand for the generations layer's tests: a header and rows as JSON
// values (or raw text for damaged lines), read through readGeneration.
import { readGeneration, type FormatRead, type ReadGenerationOptions } from '../../src/core/format';

export const SESSION_ID = 'fmt-test';

/** A physical v0/v1 header with dsh's member order; `extra` members are added at the end. */
export function physicalHeader(version = 0, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'session', version, id: SESSION_ID, createdAt: 0, cwd: '/tmp/fmt', delegationDepth: 0, ...extra };
}

/** One line per value: a string is written as is (damage), anything else as JSON. */
export function logText(header: unknown, rows: readonly unknown[], options: { tail?: string; crlf?: boolean } = {}): string {
  const eol = options.crlf ? '\r\n' : '\n';
  const line = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
  return [header, ...rows].map((value) => line(value) + eol).join('') + (options.tail ?? '');
}

export function logBytes(header: unknown, rows: readonly unknown[], options: { tail?: string; crlf?: boolean } = {}): Uint8Array {
  return new TextEncoder().encode(logText(header, rows, options));
}

export function read(bytes: Uint8Array, targetVersion = 1, options: Partial<ReadGenerationOptions> = {}): FormatRead {
  return readGeneration(bytes, { targetVersion, ...options });
}

/** A whole, valid v0 turn: user prompt, one step with an assistant reply, turn end (seqs from `seq`). */
export function plainTurn(seq = 0, turn = 1): Record<string, unknown>[] {
  const at = (i: number): number => seq + i;
  return [
    { type: 'turn/start', seq: at(0), time: 1, data: { turn } },
    { type: 'step/start', seq: at(1), time: 1, data: { turn, step: 1 } },
    {
      type: 'user/message',
      seq: at(2),
      time: 1,
      data: { id: `u${turn}`, role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } },
      surfaceOp: 'append',
    },
    {
      type: 'assistant/message',
      seq: at(3),
      time: 2,
      data: {
        turn,
        step: 1,
        message: {
          id: `a${turn}`,
          role: 'assistant',
          content: [{ type: 'text', text: 'hello' }],
          source: { kind: 'model', provider: 'p', model: 'm' },
        },
      },
      surfaceOp: 'append',
    },
    { type: 'step/end', seq: at(4), time: 3, data: { turn, step: 1 } },
    { type: 'turn/end', seq: at(5), time: 3, data: { turn, reason: { kind: 'completed' } } },
  ];
}
