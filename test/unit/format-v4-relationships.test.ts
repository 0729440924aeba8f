// The v4 relationships between events (spec §6, §7 as cited in each title): lifecycle, tool calls,
// PTC sub-calls, retries, titles, commands, compactions and the protected head, the inherited cut, the
// catalog and delivery markers; and values nested thousands deep. Per-event rules: format-v4-restore.test.ts.
import { strict as assert } from 'node:assert';
import { assertV4RowAdmission, restoreV4, restoreV4Generation } from '../../src/core/format/v3-to-v4';
import {
  artifactOf,
  baseV4Log,
  EventList,
  expectLoads as loads,
  expectRefused as refused,
  fixReferencesAfterInsert,
  fixSeqs,
  userMessage,
  withEvent,
  withInserted,
  type LooseEvent,
} from '../support/v4-artifacts';

const base = baseV4Log();
const events = base.list.events;
const at = base.seq;

describe('format v4 restore: relationships (spec §6)', () => {
  describe('relationships (§6)', () => {
    it('§6: turns and steps open and close in order', () => {
      refused(artifactOf(withEvent(events, 0, (e) => (e.data.turn = 2))), 'turn/start does not open the expected turn');
      refused(artifactOf(withEvent(events, 12, (e) => (e.data.step = 3))), 'step/start does not match the open turn and next step');
      const early = structuredClone(events).filter((e) => e.type !== 'step/end' || e.data.step !== 2);
      refused(artifactOf(fixSeqs(early)), 'turn/end does not match the open turn with no open step');
    });
    it('§6: an unfinished tail stays open', () => {
      loads(artifactOf(events.slice(0, at.toolCall + 1)));
    });
    it('§6: a step cannot close with a call unresolved; a result settles one advertised call', () => {
      const unresolved = structuredClone(events).filter((e) => e.seq !== at.result);
      refused(artifactOf(fixSeqs(unresolved)), 'step/end leaves unresolved tool call call-1');
      const stranger = withEvent(
        events,
        at.result,
        (e) => ((e.data.message.toolCallId = 'call-9'), (e.data.message.source.callId = 'call-9')),
      );
      refused(artifactOf(stranger), 'tool/result call-9 has no advertised tool lifecycle');
      refused(
        artifactOf(withEvent(events, at.toolCall, (e) => (e.data.arguments = '{}'))),
        'tool/call call-1 does not match one advertised tool call',
      );
    });
    it('§6 / §7: a result for a call that never started must be the exact TOOL_NOT_STARTED repair', () => {
      const notStarted = structuredClone(events).filter((e) => e.seq !== at.toolCall);
      const fixed = fixSeqs(notStarted);
      const resultSeq = at.result - 1;
      const repair = (text: string, id = `interrupted-tool-result-call-1-${resultSeq}`) =>
        withEvent(fixed, resultSeq, (e) => {
          delete e.sourceEventSeqs;
          e.data.message = { ...e.data.message, id, isError: true, content: [{ type: 'text', text }] };
          e.data.error = { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' };
        });
      const exact = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.';
      loads(artifactOf(repair(exact)));
      loads(artifactOf(repair(exact, 'interrupted-tool-result-call-1-7')));
      refused(artifactOf(repair('possibly ran')), 'tool/result call-1 is not the exact TOOL_NOT_STARTED repair');
      refused(
        artifactOf(repair(exact, 'interrupted-tool-result-call-1-07')),
        'tool/result call-1 is not the exact TOOL_NOT_STARTED repair',
      );
      refused(artifactOf(fixed), 'not-started error requires an object');
    });
    it('§6: request headers and contexts need an open turn', () => {
      const outside = withInserted(events, events.length, { type: 'request/context', time: 1, data: { provider: 'p', model: 'm' } });
      refused(artifactOf(outside), 'request/context is outside an open turn');
    });
    it('§6: titles cite distinct earlier human user messages; a title request sends one title-llm text message', () => {
      refused(
        artifactOf(withEvent(events, 4, (e) => (e.data.messageSeqs = [at.head]))),
        'session/title messageSeqs must cite distinct earlier human user/message events',
      );
      refused(
        artifactOf(withEvent(events, 4, (e) => (e.data.messageSeqs = []))),
        'session/title messageSeqs must be empty exactly for a user title',
      );
      const request = {
        type: 'session/title-llm-request',
        time: 1,
        data: {
          titleProvider: 'x',
          messageSeqs: [at.prompt],
          messages: [userMessage('t1', '[]', { kind: 'dsh-session-title-llm' })],
          maxTokens: 64,
        },
      };
      loads(artifactOf(withInserted(events, events.length, request)));
      const wrong = { ...request, data: { ...request.data, messages: [userMessage('t1', '[]', { kind: 'user' })] } };
      refused(artifactOf(withInserted(events, events.length, wrong)), 'session/title-llm-request messages do not represent messageSeqs');
    });
    it('§6: commands: unique run ids, a done after its run', () => {
      const list = structuredClone(events);
      list.push({ type: 'command/done', seq: list.length, time: 1, data: { commandId: 'c1', kind: 'success' } });
      refused(artifactOf(list), 'command/done has no prior command/run');
    });
    it('§6: retries follow the request provider and count up per policy chain', () => {
      const retry = (retryNo: number, provider = 'deepseek-official') => ({
        type: 'llm/retry',
        time: 1,
        data: {
          retryId: 'r',
          turn: 1,
          step: 2,
          provider,
          mode: 'always',
          policyKey: 'k',
          retry: retryNo,
          delayMs: 0,
          failure: { message: 'x' },
        },
      });
      const ok = withInserted(events, at.answer, retry(1));
      loads(artifactOf(fixReferencesAfterInsert(ok, at.answer)));
      refused(
        artifactOf(fixReferencesAfterInsert(withInserted(events, at.answer, retry(2)), at.answer)),
        'llm/retry skips its policy attempt sequence',
      );
      refused(
        artifactOf(fixReferencesAfterInsert(withInserted(events, at.answer, retry(1, 'other')), at.answer)),
        'llm/retry provider does not match the open request/header',
      );
    });
    it('§6: a retry chain keeps one retryId; a retry start pairs one scheduled attempt, once', () => {
      const retry = (retryNo: number, retryId = 'r', policyKey = 'k') => ({
        type: 'llm/retry',
        time: 1,
        data: {
          retryId,
          turn: 1,
          step: 2,
          provider: 'deepseek-official',
          mode: 'always',
          policyKey,
          retry: retryNo,
          delayMs: 0,
          failure: { message: 'x' },
        },
      });
      const started = (retryNo: number, retryId = 'r') => ({
        type: 'llm/retry-started',
        time: 1,
        data: { retryId, turn: 1, step: 2, retry: retryNo },
      });
      // The events inserted in order before the step's answer, each insert moving the references after it.
      const withAll = (...inserted: Omit<LooseEvent, 'seq'>[]) => {
        let list = structuredClone(events) as LooseEvent[];
        inserted.forEach((event, i) => (list = fixReferencesAfterInsert(withInserted(list, at.answer + i, event), at.answer + i)));
        return artifactOf(list);
      };
      loads(withAll(retry(1), started(1), retry(2), started(2), retry(1, 's', 'other'), started(1, 's')));
      refused(withAll(retry(1), retry(2, 'q')), 'llm/retry must keep one retryId per policy chain');
      refused(withAll(retry(1), retry(1, 'r', 'other')), 'llm/retry must keep one retryId per policy chain');
      refused(withAll(retry(1), retry(3)), 'llm/retry skips its policy attempt sequence');
      refused(withAll(retry(1), started(2)), 'llm/retry-started pairs no prior scheduled attempt');
      refused(withAll(started(1)), 'llm/retry-started pairs no prior scheduled attempt');
      refused(withAll(retry(1), started(1), started(1)), 'llm/retry-started repeats one scheduled attempt');
    });
    it('§6: an assistant/attempt belongs to an open step', () => {
      const attempt = { type: 'assistant/attempt', time: 1, data: { turn: 1, step: 3, stream: [] } };
      refused(
        artifactOf(fixReferencesAfterInsert(withInserted(events, at.answer, attempt), at.answer)),
        'assistant/attempt does not match an open turn and step',
      );
    });
  });

  describe('compactions and the protected head (§6, §7)', () => {
    function compacted(
      span: number[],
      checkpointSource: Record<string, unknown> = { kind: 'compact-checkpoint', compactionId: 'k1' },
    ): LooseEvent[] {
      const list = new EventList();
      for (const e of structuredClone(events))
        list.add(e.type, e.data, {
          ...(e.surfaceOp ? { surfaceOp: e.surfaceOp } : {}),
          ...(e.sourceEventSeqs ? { sourceEventSeqs: e.sourceEventSeqs } : {}),
        });
      const start = list.add('compaction/start', { compactionId: 'k1', turn: null });
      const summary = list.add('compaction/summary', {
        compactionId: 'k1',
        summary: [{ type: 'text', text: 'Summary.' }],
        shadowedRange: { start: span[0], end: span[span.length - 1] },
        shadowedSeqs: span,
        shadowedTokenCount: 100,
      });
      list.add('user/message', userMessage('k', 'checkpoint', checkpointSource), {
        sourceEventSeqs: [start, summary, ...span],
        surfaceOp: { op: 'replace', startSeq: span[0], endSeq: span[span.length - 1] },
      });
      list.add('compaction/end', { compactionId: 'k1', turn: null });
      return list.events;
    }
    const surfaceAfterHead = [at.prompt, at.developer, at.call, at.result, at.answer];
    it('§6: a summary spans exact current surface nodes after the protected head; the checkpoint names its compaction', () => {
      loads(artifactOf(compacted(surfaceAfterHead)));
      refused(artifactOf(compacted([at.prompt, at.call])), 'compaction/summary shadowedSeqs do not name an exact current surface span');
      refused(artifactOf(compacted([at.head, ...surfaceAfterHead])), 'compaction cannot shadow the protected system head');
      refused(
        artifactOf(compacted(surfaceAfterHead, { kind: 'compact-checkpoint', compactionId: 'k2' })),
        'compaction checkpoint has no matching compaction/start',
      );
    });
    it('§6: a prune spans exact current nodes, not the head; a pruned tool-role result replaces in an open turn', () => {
      const list = structuredClone(events);
      list.pop();
      const prune = {
        type: 'compaction/prune',
        seq: list.length,
        time: 1,
        data: { shadowedRange: { start: at.result, end: at.result }, shadowedSeqs: [at.result], shadowedTokenCount: 9 },
      };
      const pruned = structuredClone(events[at.result]);
      pruned.seq = list.length + 1;
      pruned.data.message.content = [{ type: 'text', text: '[pruned]' }];
      pruned.surfaceOp = { op: 'replace', startSeq: at.result, endSeq: at.result };
      pruned.sourceEventSeqs = [at.result];
      const end = { ...events[events.length - 1], seq: list.length + 2 };
      loads(artifactOf([...list, prune, pruned, end]));
      const onHead = {
        ...prune,
        data: { shadowedRange: { start: at.head, end: at.head }, shadowedSeqs: [at.head], shadowedTokenCount: 9 },
      };
      refused(artifactOf([...list, onHead]), 'compaction cannot shadow the protected system head');
      const afterTurn = [...structuredClone(events), { ...pruned, seq: events.length }];
      refused(artifactOf(afterTurn), 'tool/result is outside an open turn');
    });
  });

  describe('more relationships (§6)', () => {
    /** The base log with `extra` events inserted before the first step/end (inside turn 1, step 1). */
    const inStep = (...extra: Omit<LooseEvent, 'seq'>[]) => {
      let list = structuredClone(events) as LooseEvent[];
      extra.forEach((event, i) => (list = withInserted(list, 11 + i, event)));
      return artifactOf(list);
    };
    const dispatch = (type: string, sub: string, parent = 'call-1', extra: object = {}) => ({
      type,
      time: 1,
      data: { rootCallId: 'call-1', parentCallId: parent, subCallId: sub, name: 'bash', arguments: { command: 'ls' }, ...extra },
    });
    it('§6: PTC sub-calls start once and settle once with the same root, parent, name and arguments', () => {
      loads(inStep(dispatch('tool/ptc-dispatch-start', 's1'), dispatch('tool/ptc-dispatch', 's1', 'call-1', { content: [] })));
      refused(inStep(dispatch('tool/ptc-dispatch', 's1')), 'PTC dispatch has no unique start');
      refused(
        inStep(dispatch('tool/ptc-dispatch-start', 's1'), dispatch('tool/ptc-dispatch-start', 's1')),
        'PTC dispatch repeats subCallId',
      );
      refused(inStep(dispatch('tool/ptc-dispatch-start', 's1', 'nobody')), 'PTC parentCallId does not belong to rootCallId');
      const changed = {
        ...dispatch('tool/ptc-dispatch', 's1'),
        data: { ...dispatch('tool/ptc-dispatch', 's1').data, arguments: { command: 'rm' } },
      };
      refused(inStep(dispatch('tool/ptc-dispatch-start', 's1'), changed), 'PTC dispatch does not match its start');
    });
    it('§6: a command completion cites an earlier non-command event, and only on success', () => {
      const run = { type: 'command/run', time: 1, data: { commandId: 'c1', name: 'compact', source: 'user' } };
      const done = (data: object) => ({ type: 'command/done', time: 1, data: { commandId: 'c1', kind: 'success', ...data } });
      loads(inStep(run, done({ sourceEventSeq: at.prompt })));
      refused(inStep(run, done({ sourceEventSeq: 11 })), 'command/done has invalid sourceEventSeq');
      refused(inStep(run, done({ kind: 'error', sourceEventSeq: at.prompt })), 'command/done has invalid sourceEventSeq');
      refused(inStep(run, run), 'command/run repeats commandId c1');
    });
    it('§6: compactions do not overlap, match the open turn, and a turn boundary does not cross one', () => {
      const start = (id: string, turn: number | null = 1) => ({ type: 'compaction/start', time: 1, data: { compactionId: id, turn } });
      refused(inStep(start('k1'), start('k2')), 'compaction/start overlaps an open compaction');
      refused(inStep(start('k1', null)), 'compaction/start does not match the open turn');
      refused(inStep(start('k1')), 'turn/end crosses an open compaction');
      const crossing = withInserted(events, events.length - 1, {
        type: 'compaction/start',
        time: 1,
        data: { compactionId: 'k1', turn: 1 },
      });
      refused(artifactOf(crossing), 'turn/end crosses an open compaction');
      const failed = withInserted(crossing, events.length, {
        type: 'compaction/end',
        time: 1,
        data: { compactionId: 'k1', turn: 1, error: { message: 'x' } },
      });
      loads(artifactOf(failed));
      const unsummarized = withInserted(crossing, events.length, {
        type: 'compaction/end',
        time: 1,
        data: { compactionId: 'k1', turn: 1 },
      });
      refused(artifactOf(unsummarized), 'successful compaction/end requires one summary');
    });
    it('§6: a compaction the inherited prefix left open expires at the seed marker', () => {
      const open = withInserted(events, events.length - 1, { type: 'compaction/start', time: 1, data: { compactionId: 'k1', turn: 1 } });
      const seeded = withInserted(open, open.length, { type: 'session/end-seed', time: 1, data: { inherited: true } });
      loads(artifactOf(seeded, { isSeeded: true, parentSession: 'p' }, open.length));
    });
    it('§6 (installed session, v0 spec §3 and §8.1): a replacing tool/result rewrites one current result and changes only its content', () => {
      const list = structuredClone(events) as LooseEvent[];
      list.pop();
      const rewrite = (change: (e: LooseEvent) => void, startSeq = at.result) => {
        const pruned = structuredClone(events[at.result]) as LooseEvent;
        pruned.seq = list.length;
        pruned.data.message.content = [{ type: 'text', text: '[pruned]' }];
        pruned.surfaceOp = { op: 'replace', startSeq, endSeq: startSeq };
        pruned.sourceEventSeqs = [startSeq];
        change(pruned);
        return artifactOf([...structuredClone(list), pruned]);
      };
      loads(rewrite(() => undefined));
      refused(
        rewrite((e) => (e.data.message.id = 'other')),
        'tool/result surface replacement may change only content',
      );
      refused(
        rewrite((e) => (e.data.message.isError = true)),
        'tool/result surface replacement may change only content',
      );
      refused(
        rewrite(() => undefined, at.prompt),
        'tool/result surface replacement must target a current tool/result',
      );
    });
    it('§5 fork results: a forked TOOL_NOT_STARTED result carries its own seq in its id, cites nothing, has one text block', () => {
      const notStarted = structuredClone(events).filter((e) => e.seq !== at.toolCall) as LooseEvent[];
      fixSeqs(notStarted);
      const seq = at.result - 1;
      const forked = (change: (e: LooseEvent) => void) =>
        artifactOf(
          withEvent(notStarted, seq, (e) => {
            delete e.sourceEventSeqs;
            e.data.message = {
              ...e.data.message,
              id: `forked-tool-result-call-1-${seq}`,
              isError: true,
              content: [{ type: 'text', text: 'Fork text.' }],
            };
            e.data.error = { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' };
            change(e);
          }),
        );
      loads(forked(() => undefined));
      refused(
        forked((e) => (e.data.message.id = `forked-tool-result-call-1-${seq + 1}`)),
        'invalid V4 not-started fork result',
      );
      refused(
        forked((e) => (e.data.message.id = `forked-tool-result-call-1-0${seq}`)),
        'invalid V4 not-started fork result',
      );
      refused(
        forked((e) => (e.sourceEventSeqs = [2])),
        'invalid V4 not-started fork result',
      );
      refused(
        forked((e) => (e.data.error.name = 'Error')),
        'invalid V4 not-started fork result',
      );
      refused(
        forked((e) => e.data.message.content.push({ type: 'text', text: 'more' })),
        'invalid V4 not-started fork result',
      );
    });
  });

  describe('inherited cut and catalog, delivery (§6 via §5)', () => {
    it('§6: a seeded header needs its last inherited end-seed marker at the cut', () => {
      const seeded = withInserted(events, events.length, { type: 'session/end-seed', time: 1, data: { inherited: true } });
      loads(artifactOf(seeded, { isSeeded: true, parentSession: 'p' }, events.length));
      refused(artifactOf(seeded, { isSeeded: true }, 3), 'format v4 seeded header disagrees with its last inherited end-seed marker');
      refused(artifactOf(seeded), 'format v4 unseeded Session contains an inherited end-seed marker');
    });
    it('§6: native subagent/catalog payloads and unique child ids', () => {
      const fact = { version: 0, childId: 'c1', childCreatedAt: 5, mode: 'one-shot' };
      const one = withInserted(events, events.length, { type: 'subagent/catalog', time: 1, data: fact });
      loads(artifactOf(one));
      const two = withInserted(one, one.length, { type: 'subagent/catalog', time: 1, data: fact });
      refused(artifactOf(two), 'duplicate catalog child c1');
      refused(
        artifactOf(withInserted(events, events.length, { type: 'subagent/catalog', time: 1, data: { ...fact, mode: 'unknown' } })),
        'subagent/catalog requires a supported versioned catalog fact',
      );
    });
    it('§5 delivery guards: a generation-4 marker names this session and an earlier throughSeq', () => {
      const marker = (data: unknown) =>
        artifactOf(withInserted(events, events.length, { type: 'session-log-deepseek/delivery-accepted', time: 1, data }));
      loads(marker({ sessionId: 'session-v4', sessionFormatVersion: 4, throughSeq: 3 }));
      loads(marker({ sessionId: 'someone-else', sessionFormatVersion: 3, throughSeq: 3 }));
      refused(
        marker({ sessionId: 'someone-else', sessionFormatVersion: 4, throughSeq: 3 }),
        'current-generation delivery marker names the wrong Session',
      );
      refused(marker({ sessionId: 'session-v4', sessionFormatVersion: 4, throughSeq: 99 }), 'delivery throughSeq must precede its marker');
    });
  });

  it('§6: restoreV4Generation (a migrated artifact) skips the installed session’s per-event checks', () => {
    const noReason = artifactOf(withEvent(events, at.header, (e) => delete e.data.reason));
    assert.equal(restoreV4Generation(noReason), noReason);
    refused(noReason, 'format v4 request/header at seq 5 has an invalid reason');
  });
});
describe('format v4 restore: values nested thousands of levels deep (§6 with hostile input)', () => {
  function deep(levels: number): unknown {
    let value: unknown = 'x';
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  }
  it('§6: PTC arguments compared iteratively, and a deep seq in an admitted row is named without overflowing', () => {
    const list = baseV4Log().list.events;
    const sub = { rootCallId: 'call-1', parentCallId: 'call-1', subCallId: 's1', name: 'bash' };
    const start = { type: 'tool/ptc-dispatch-start', seq: 11, time: 1, data: { ...sub, arguments: deep(50_000) } };
    const settle = { type: 'tool/ptc-dispatch', seq: 12, time: 1, data: { ...sub, arguments: deep(50_000), content: [] } };
    const rest = list.slice(11).map((e, i) => ({ ...e, seq: 13 + i }));
    assert.doesNotThrow(() => restoreV4(artifactOf([...list.slice(0, 11), start, settle, ...rest])));
    const row = { type: 'user/message', seq: deep(50_000), time: 1, data: { content: [{ type: 'tool-result' }] } };
    assert.throws(() => assertV4RowAdmission(row), /^SessionFormatError: format v4 user\/message at seq \[\[\[/);
  });
});
