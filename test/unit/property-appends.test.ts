// Property: a session grown only by legal appends — turns streamed chunk by chunk, tool calls and
// results, planned prunes inside turns and planned manual compactions between them — is a file whose
// bytes are the header line plus the appended lines, that loads with verdict ok, and whose every
// event re-serializes to exactly its line. Such a session also breaks no relational invariant and
// has no provenance warning: legal appends must not look suspicious to our own lint.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  checkInvariants,
  loadSession,
  planCompaction,
  planToolResultPrune,
  provenanceIndex,
  serializeEvent,
  serializeHeader,
  type AcceptedPlan,
  type NewEvent,
  type SessionEvent,
  type SessionLog,
} from '../../src/core';

interface CallSpec {
  args: string[];
  result: string;
  prune: string | null;
}
interface StepSpec {
  reasoning: string[];
  text: string[];
  calls: CallSpec[];
}
interface TurnSpec {
  prompt: string;
  steps: StepSpec[];
  compact: { from: number; span: number; summary: string } | null;
}

// Any code unit, lone surrogates included (JSON.stringify escapes them), or readable text.
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 12 }));
const pieces = fc.array(text, { maxLength: 4 });
const call = fc.record({ args: fc.array(text, { minLength: 1, maxLength: 3 }), result: text, prune: fc.option(text, { nil: null }) });
const step = fc.record({ reasoning: pieces, text: pieces, calls: fc.array(call, { maxLength: 2 }) });
const turn = fc.record({
  prompt: text,
  steps: fc.array(step, { minLength: 1, maxLength: 3 }),
  compact: fc.option(fc.record({ from: fc.nat(), span: fc.nat(), summary: text }), { nil: null }),
});

/** A session written only through the core's append (and the planners), keeping every line. */
class AppendSession {
  readonly header = serializeHeader({
    version: 0,
    id: 'prop-session',
    createdAt: 1_786_000_000_000,
    cwd: '/work/prop',
    delegationDepth: 0,
  }) as string;
  readonly lines: string[] = [];
  readonly log: SessionLog = loadSession(new TextEncoder().encode(`${this.header}\n`));
  private time = 1_786_000_000_000;
  private ids = 0;
  turnNo = 0;

  add(type: string, data: unknown, envelope: Partial<SessionEvent> = {}): number {
    const seq = this.log.eventCount;
    this.time += 1;
    const result = this.log.append([{ type, seq, time: this.time, data, ...envelope } as NewEvent]);
    assert.ok(result.ok, `append ${type} refused: ${JSON.stringify(!result.ok && result.problems)}`);
    this.lines.push(...result.lines);
    return seq;
  }

  commit(plan: AcceptedPlan): void {
    const result = this.log.append(plan.events as unknown as NewEvent[]);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.deepEqual(result.lines, plan.lines, 'the append writes exactly the planned lines');
    this.lines.push(...result.lines);
  }

  id(prefix: string): string {
    this.ids += 1;
    return `${prefix}-${this.ids}`;
  }

  bytes(): Uint8Array {
    return new TextEncoder().encode([this.header, ...this.lines].map((l) => `${l}\n`).join(''));
  }
}

function streamBlock(
  s: AppendSession,
  turnNo: number,
  stepNo: number,
  index: number,
  kind: 'reasoning' | 'text',
  parts: string[],
): number[] {
  const chunk = (c: unknown) => s.add('assistant/chunk', { turn: turnNo, step: stepNo, chunk: c });
  const seqs = [chunk({ type: 'block-start', index, blockType: kind })];
  for (const part of parts) seqs.push(chunk({ type: `${kind}-delta`, index, text: part }));
  seqs.push(chunk({ type: 'block-end', index, block: { type: kind, text: parts.join('') } }));
  return seqs;
}

function writeStep(s: AppendSession, turnNo: number, stepNo: number, spec: StepSpec): void {
  s.add('step/start', { turn: turnNo, step: stepNo });
  if (stepNo === 1) s.add('request/header', { header: { config: { provider: 'prop-p', model: 'prop-m' } }, reason: 'initial' });
  const chunk = (c: unknown) => s.add('assistant/chunk', { turn: turnNo, step: stepNo, chunk: c });
  const cited: number[] = [];
  const content: unknown[] = [];
  let index = 0;
  for (const [kind, parts] of [
    ['reasoning', spec.reasoning],
    ['text', spec.text],
  ] as const) {
    if (parts.length === 0) continue;
    cited.push(...streamBlock(s, turnNo, stepNo, index++, kind, parts));
    content.push({ type: kind, text: parts.join('') });
  }
  const calls = spec.calls.map((c) => ({ ...c, id: s.id('call'), name: 'read' }));
  for (const c of calls) {
    const i = index++;
    cited.push(chunk({ type: 'block-start', index: i, blockType: 'tool-call' }));
    for (const part of c.args) cited.push(chunk({ type: 'tool-call-delta', index: i, id: c.id, name: c.name, argumentsDelta: part }));
    const block = { type: 'tool-call', id: c.id, name: c.name, arguments: c.args.join('') };
    cited.push(chunk({ type: 'block-end', index: i, block }));
    content.push(block);
  }
  cited.push(chunk({ type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } }));
  cited.push(chunk({ type: 'finish', reason: { kind: calls.length > 0 ? 'tool-calls' : 'stop' } }));
  const message = { role: 'assistant', content, source: { kind: 'model', provider: 'prop-p', model: 'prop-m' }, id: s.id('assistant') };
  s.add(
    'assistant/message',
    { turn: turnNo, step: stepNo, message, usage: { inputTokens: 3, outputTokens: 2 } },
    { sourceEventSeqs: cited, surfaceOp: 'append' },
  );
  const callSeqs = calls.map((c) =>
    s.add('tool/call', { turn: turnNo, step: stepNo, callId: c.id, name: c.name, arguments: c.args.join('') }),
  );
  for (const [k, c] of calls.entries()) {
    const result = {
      source: { kind: 'tool', callId: c.id },
      content: [{ type: 'tool-result', toolCallId: c.id, content: [{ type: 'text', text: c.result }], isError: false }],
      role: 'user',
      id: s.id('result'),
    };
    const resultSeq = s.add(
      'tool/result',
      { turn: turnNo, step: stepNo, message: result },
      { sourceEventSeqs: [callSeqs[k]], surfaceOp: 'append' },
    );
    if (c.prune === null || c.prune === c.result) continue;
    // The pruner rewrites inside the turn, right after the result, as dsh's does.
    const plan = planToolResultPrune(s.log, resultSeq, [{ type: 'text', text: c.prune }], { shadowedTokenCount: 9 });
    assert.ok(plan.ok, JSON.stringify(plan));
    s.commit(plan);
  }
  s.add('step/end', { turn: turnNo, step: stepNo });
}

function writeTurn(s: AppendSession, spec: TurnSpec): void {
  const turnNo = ++s.turnNo;
  s.add('turn/start', { turn: turnNo });
  s.add(
    'user/message',
    { content: [{ type: 'text', text: spec.prompt }], source: { kind: 'user' }, role: 'user', id: s.id('user') },
    { surfaceOp: 'append' },
  );
  spec.steps.forEach((step, k) => writeStep(s, turnNo, k + 1, step));
  s.add('turn/end', { turn: turnNo, reason: { kind: 'completed' } });
  if (!spec.compact) return;
  // A manual compaction between two balanced cuts, chosen from the surface as it is now.
  const balance = s.log.balancedCuts();
  assert.ok('cuts' in balance);
  const cuts = balance.cuts;
  const nodes = s.log.surface();
  const i = spec.compact.from % (cuts.length - 1);
  const j = i + 1 + (spec.compact.span % (cuts.length - 1 - i));
  const plan = planCompaction(s.log, {
    start: nodes[cuts[i]],
    end: nodes[cuts[j] - 1],
    summary: [{ type: 'text', text: spec.compact.summary }],
    compactionId: s.id('compaction'),
    messageId: s.id('checkpoint'),
    time: 1_786_000_500_000,
    shadowedTokenCount: 100,
    provider: 'prop-p',
    model: 'prop-m',
  });
  assert.ok(plan.ok, JSON.stringify(plan));
  s.commit(plan);
}

describe('property: legal appends round-trip byte-exactly', function () {
  this.timeout(120_000);

  it('header + appended lines load ok, and every event re-serializes to its line', () => {
    const seen = { compactions: 0, prunes: 0, events: 0 };
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 5 }), (turns) => {
        const s = new AppendSession();
        for (const spec of turns) writeTurn(s, spec);
        assert.deepEqual(s.log.verdict, { ok: true, stage: 'done' }, 'the grown log');

        const reloaded = loadSession(s.bytes());
        assert.deepEqual(reloaded.verdict, { ok: true, stage: 'done' }, 'the file');
        assert.equal(reloaded.scan.committedBytes, s.bytes().length);
        assert.equal(reloaded.eventCount, s.lines.length);
        for (let seq = 0; seq < reloaded.eventCount; seq++) {
          assert.equal(reloaded.lineText(seq), s.lines[seq], `line of seq ${seq}`);
          assert.equal(s.log.lineText(seq), s.lines[seq], `in-memory line of seq ${seq}`);
          assert.equal(serializeEvent(reloaded.event(seq)!), s.lines[seq], `re-serialized seq ${seq}`);
        }
        assert.deepEqual(reloaded.surface(), s.log.surface());
        assert.deepEqual(reloaded.replacements(), s.log.replacements());

        assert.deepEqual(checkInvariants(reloaded), []);
        assert.deepEqual(
          provenanceIndex(reloaded).diagnostics.filter((d) => d.severity === 'warning'),
          [],
        );
        for (let seq = 0; seq < reloaded.eventCount; seq++) {
          if (reloaded.eventType(seq) === 'compaction/summary') seen.compactions += 1;
          if (reloaded.eventType(seq) === 'compaction/prune') seen.prunes += 1;
        }
        seen.events += reloaded.eventCount;
      }),
      { numRuns: 60 },
    );
    // The generator must really exercise the planners, or the property proves little.
    assert.ok(seen.compactions > 10 && seen.prunes > 10, JSON.stringify(seen));
  });
});
