// The v3 → v4 migration, one rule per test (spec §5 "v3 → v4" as cited in each title). The stage is
// driven as the chain drives it: events in, v4 events out, then finish; the output is then restored
// as v4 (the rules of generation 4 itself, as dsh does for a migrated artifact).
import { strict as assert } from 'node:assert';
import type { EventRun, FormatEvent, LogicalHeader } from '../../src/core/format';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../../src/core/format';
import { createV3ToV4Migration, producerKind, restoreV4Generation, v3ToV4Migration } from '../../src/core/format/v3-to-v4';
import {
  baseV3Log,
  EventList,
  userMessage,
  v3Header,
  v3ToolResult,
  withEvent,
  withInserted,
  type LooseEvent,
} from '../support/v4-artifacts';

interface Migrated {
  events: LooseEvent[];
  cut: number;
}

function migrate(
  events: readonly FormatEvent[],
  header: Partial<LogicalHeader> = {},
  children: unknown[] = [],
  declaredCut?: number,
): Migrated {
  const sourceHeader = v3Header(header);
  const migration = createV3ToV4Migration(children);
  const targetHeader = migration.migrateHeader(sourceHeader);
  const stage = migration.createStage({ sourceHeader, targetHeader, sourceInheritedEventCount: declaredCut, sourceKind: 'decoded' });
  const out: LooseEvent[] = [];
  const sink = {
    emitEvent: (event: FormatEvent) => out.push(event as LooseEvent),
    emitRun: (run: EventRun) => out.push(...(run.expand() as Iterable<LooseEvent>)),
  };
  for (const event of structuredClone(events) as FormatEvent[]) stage.transformEvent(event, sink);
  const cut = stage.finish(sink);
  return { events: out, cut };
}

function migratesAndRestores(events: readonly FormatEvent[], header: Partial<LogicalHeader> = {}, children: unknown[] = []): Migrated {
  const migrated = migrate(events, header, children);
  const targetHeader = { ...v3Header(header), version: 4 };
  restoreV4Generation({ header: targetHeader, inheritedEventCount: migrated.cut, events: migrated.events });
  return migrated;
}

function refuses(
  events: readonly FormatEvent[],
  message: string,
  errorClass: Function,
  header: Partial<LogicalHeader> = {},
  children: unknown[] = [],
): void {
  assert.throws(
    () => migrate(events, header, children),
    (error: Error) => {
      assert.ok(error instanceof errorClass, `${error.name}: ${error.message}`);
      assert.equal(error.message, message);
      return true;
    },
  );
}

const base = baseV3Log();
const events = base.list.events;
const at = base.seq;

describe('format v3 → v4 migration (spec §5)', () => {
  it('§5: the header moves from version 3 to 4 and nothing else; the edge is named as dsh names it', () => {
    const header = v3Header({ agentPreset: 'ptc', parentSession: 'p', origin: 'subagent' });
    assert.deepEqual(v3ToV4Migration.migrateHeader(header), { ...header, version: 4 });
    assert.equal(v3ToV4Migration.name, '@deepseek-ai/dsh-session-format-v3-to-v4');
    assert.equal(v3ToV4Migration.edge, 'v3-to-v4');
    assert.throws(
      () => v3ToV4Migration.validateTargetHeader({ ...header, version: 4, seedLength: 0 } as never),
      /unexpected field seedLength/,
    );
  });

  it('§5: the crafted v3 log migrates and passes the v4 rules', () => {
    const { events: out } = migratesAndRestores(events);
    assert.equal(out.length, events.length);
  });

  describe('tool results become tool-role messages (§5)', () => {
    it('§5: the wrapper’s call id, content and error flag move onto a tool-role message, in dsh’s key order', () => {
      const out = migratesAndRestores(events).events[at.result];
      assert.deepEqual(out.data.message, {
        role: 'tool',
        source: { kind: 'tool', callId: 'call-1' },
        toolCallId: 'call-1',
        content: [{ type: 'text', text: 'a.txt\n' }],
        isError: false,
        id: 'r1',
      });
      assert.deepEqual(Object.keys(out.data.message), ['role', 'source', 'toolCallId', 'content', 'isError', 'id']);
    });
    it('§5: other message fields become plugin:message:<name>, other wrapper fields plugin:result:<name>', () => {
      const extended = withEvent(events, at.result, (e) => {
        e.data.message.meta = { path: '/a' };
        e.data.message.content[0].meta = { lines: 3 };
        e.data.message.content[0]['plugin:x'] = 1;
      });
      const message = migratesAndRestores(extended).events[at.result].data.message;
      assert.deepEqual(message['plugin:message:meta'], { path: '/a' });
      assert.deepEqual(message['plugin:result:meta'], { lines: 3 });
      assert.equal(message['plugin:result:plugin:x'], 1);
      assert.equal(message.meta, undefined);
    });
    it('§5: a result without isError keeps none; an empty content stays empty', () => {
      const bare = withEvent(events, at.result, (e) => {
        delete e.data.message.content[0].isError;
        e.data.message.content[0].content = [];
      });
      const message = migratesAndRestores(bare).events[at.result].data.message;
      assert.equal('isError' in message, false);
      assert.deepEqual(message.content, []);
    });
    it('§5: a malformed wrapper is a format error; a nested result is refused as unsupported', () => {
      const other = withEvent(events, at.result, (e) => (e.data.message.content[0].toolCallId = 'call-2'));
      refuses(
        other,
        `format v3 tool/result at seq ${at.result} requires exactly one tool-result wrapper matching its tool source`,
        SessionFormatError,
      );
      const flag = withEvent(events, at.result, (e) => (e.data.message.content[0].isError = 'no'));
      refuses(flag, `format v3 tool/result at seq ${at.result} tool-result isError must be boolean`, SessionFormatError);
      const nested = withEvent(events, at.result, (e) =>
        e.data.message.content[0].content.push({ type: 'tool-result', toolCallId: 'x', content: [] }),
      );
      refuses(
        nested,
        `format v3 tool/result at seq ${at.result} contains a nested tool-result unsupported by this converter`,
        SessionFormatUnsupportedMigrationError,
      );
    });
    it('§5: a data.error without isError: true is not repaired; the v4 rules refuse it', () => {
      const contradiction = withEvent(events, at.result, (e) => (e.data.error = { name: 'Error', code: 'X' }));
      const migrated = migrate(contradiction);
      assert.throws(
        () => restoreV4Generation({ header: { ...v3Header(), version: 4 }, inheritedEventCount: 0, events: migrated.events }),
        /carries error metadata for a non-error tool result/,
      );
    });
  });

  describe('extension data (§5)', () => {
    it('§5: unknown v3 content tags become plugin:<type>, a prefixed one is prefixed again', () => {
      const tagged = withEvent(events, at.prompt, (e) => e.data.content.push({ type: 'diagram', svg: '<svg/>' }, { type: 'plugin:x' }));
      const content = migratesAndRestores(tagged).events[at.prompt].data.content;
      assert.deepEqual(content.slice(1), [{ type: 'plugin:diagram', svg: '<svg/>' }, { type: 'plugin:plugin:x' }]);
    });
    it('§5: stream block starts namespace blockType, block ends their block; arguments stay opaque', () => {
      const streamed = withEvent(events, at.answer, (e) => {
        e.data.stream.unshift(
          { type: 'chunk', time: 1, chunk: { type: 'block-start', index: 0, blockType: 'diagram' } },
          { type: 'chunk', time: 1, chunk: { type: 'block-end', index: 0, block: { type: 'diagram' } } },
        );
      });
      const stream = migratesAndRestores(streamed).events[at.answer].data.stream;
      assert.equal(stream[0].chunk.blockType, 'plugin:diagram');
      assert.equal(stream[1].chunk.block.type, 'plugin:diagram');
      const args = withEvent(events, at.call, (e) => (e.data.message.content[0].arguments = '{"type":"diagram"}'));
      assert.equal(migrate(args).events[at.call].data.message.content[0].arguments, '{"type":"diagram"}');
    });
    it('§5: a request tool with its own deferLoading is refused (the member means something only in v4)', () => {
      const deferred = withEvent(events, at.header, (e) => (e.data.header.tools[0].deferLoading = true));
      refuses(
        deferred,
        `format v3 request/header at seq ${at.header}.header.tools[0] contains deferLoading, which is only defined in V4`,
        SessionFormatUnsupportedMigrationError,
      );
    });
  });

  describe('message sources (§5)', () => {
    it('§5: the renamed producers, the system prompt by role, the 25 same-name producers, and plugin:<name>', () => {
      assert.equal(producerKind('compact', 'user'), 'compact-checkpoint');
      assert.equal(producerKind('tools-code-mode', 'user'), 'ptc-mode');
      assert.equal(producerKind('tools-ptc', 'user'), 'ptc-mode');
      assert.equal(producerKind('dsh-compaction-basic', 'user'), 'compact-basic');
      assert.equal(producerKind('@deepseek-ai/dsh-system-prompt', 'system'), 'system-prompt');
      assert.equal(producerKind('@deepseek-ai/dsh-system-prompt', 'user'), 'runtime-context');
      for (const name of [
        'agent-instructions',
        'skill-catalog',
        'goal',
        'hooks-claude-code',
        'schedule',
        'dsh-session-title-llm',
        'tool-jobs',
      ]) {
        assert.equal(producerKind(name, 'user'), name);
      }
      assert.equal(producerKind('acme', 'user'), 'plugin:acme');
      assert.equal(producerKind('', 'user'), 'plugin:');
    });
    it('§5: a plugin source loses plugin and takes the kind in place; other members keep place and value', () => {
      const out = migratesAndRestores(events).events;
      assert.deepEqual(out[at.head].data.message.source, { kind: 'system-prompt' });
      const runtime = withEvent(
        events,
        at.prompt,
        (e) => (e.data.source = { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt', form: 'snapshot', sections: [] }),
      );
      // Only migrated here: the title still cites the prompt, which is no longer a human message.
      const source = migrate(runtime).events[at.prompt].data.source;
      assert.deepEqual(source, { kind: 'runtime-context', form: 'snapshot', sections: [] });
      assert.deepEqual(Object.keys(source), ['kind', 'form', 'sections']);
    });
    it('§5: direct kinds are kept; inbox and title-request slots are converted; other payloads are not visited', () => {
      const list = structuredClone(events) as LooseEvent[];
      const spliced = {
        type: 'agent/inbox/spliced',
        time: 1,
        data: { target: 'next-turn', start: 0, inserted: [userMessage('u0', 'x', { kind: 'plugin', plugin: 'webhook', url: 'u' })] },
      };
      const queued = {
        type: 'team/message/queued',
        time: 1,
        data: { message: { role: 'user', content: [], source: { kind: 'plugin', plugin: 'x' } } },
      };
      const withBoth = withInserted(withInserted(list, list.length, spliced), list.length + 1, queued);
      const out = migrate(withBoth).events;
      assert.deepEqual(out[list.length].data.inserted[0].source, { kind: 'webhook', url: 'u' });
      assert.deepEqual(out[list.length + 1].data.message.source, { kind: 'plugin', plugin: 'x' });
      assert.deepEqual(out[at.call].data.message.source.kind, 'model');
    });
    it('§5: a plugin source needs a string plugin; a source kind must be non-empty', () => {
      refuses(
        withEvent(events, at.prompt, (e) => (e.data.source = { kind: 'plugin', plugin: 7 })),
        `plugin source at seq ${at.prompt} is not canonical: plugin requires a string`,
        SessionFormatError,
      );
      refuses(
        withEvent(events, at.prompt, (e) => (e.data.source = { kind: '' })),
        `message source at seq ${at.prompt} requires a nonempty kind`,
        SessionFormatError,
      );
    });
  });

  describe('the interrupted turn and references (§5 sequence references)', () => {
    /** Turn 1 left open (no step open), a next-turn splice, then turn 2: the restart pattern. */
    function restarted(inserted: unknown[] = [userMessage('u2', 'again')]): LooseEvent[] {
      const list = new EventList();
      list.add('turn/start', { turn: 1 });
      list.add('step/start', { turn: 1, step: 1 });
      const head = list.add(
        'system/message',
        {
          turn: 1,
          step: 1,
          message: { id: 's1', role: 'system', source: { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' }, content: [] },
        },
        { surfaceOp: 'append' },
      );
      const prompt = list.add('user/message', userMessage('u1', 'first'), { surfaceOp: 'append' });
      list.add('step/end', { turn: 1, step: 1 });
      list.add('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted });
      list.add('turn/start', { turn: 2 });
      list.add('step/start', { turn: 2, step: 1 });
      const second = list.add('user/message', userMessage('u2', 'again'), { surfaceOp: 'append' });
      list.add('session/title', { title: 't', messageSeqs: [prompt, second], source: { kind: 'fallback' } });
      list.add('command/run', { commandId: 'c1', name: 'compact', source: 'user' });
      list.add('compaction/prune', { shadowedRange: { start: prompt, end: prompt }, shadowedSeqs: [prompt], shadowedTokenCount: 3 });
      list.add('user/message', userMessage('u3', 'pruned'), {
        surfaceOp: { op: 'replace', startSeq: prompt, endSeq: prompt },
        sourceEventSeqs: [prompt, head],
      });
      list.add('command/done', { commandId: 'c1', kind: 'success', sourceEventSeq: second });
      list.add('image/offload', { targets: [{ seq: second, index: 0 }] });
      list.add('step/end', { turn: 2, step: 1 });
      list.add('turn/end', { turn: 2, reason: { kind: 'completed' } });
      return list.events;
    }
    it('§5: an interrupted turn/end is inserted before the next turn/start, taking its time', () => {
      const source = restarted();
      const out = migratesAndRestores(source).events;
      assert.equal(out.length, source.length + 1);
      assert.deepEqual(out[6], { type: 'turn/end', seq: 6, time: source[6].time, data: { turn: 1, reason: { kind: 'interrupted' } } });
      assert.equal(out[7].type, 'turn/start');
    });
    it('§5: later events are renumbered and the audited references remapped; other numbers keep their values', () => {
      const out = migratesAndRestores(restarted()).events;
      const title = out.find((e) => e.type === 'session/title')!;
      assert.deepEqual(title.data.messageSeqs, [3, 9]);
      const prune = out.find((e) => e.type === 'compaction/prune')!;
      assert.deepEqual(prune.data, { shadowedRange: { start: 3, end: 3 }, shadowedSeqs: [3], shadowedTokenCount: 3 });
      const replacement = out.find((e) => e.type === 'user/message' && e.data.id === 'u3')!;
      assert.deepEqual(replacement.surfaceOp, { op: 'replace', startSeq: 3, endSeq: 3 });
      assert.deepEqual(replacement.sourceEventSeqs, [3, 2]);
      assert.equal(out.find((e) => e.type === 'command/done')!.data.sourceEventSeq, 9);
      assert.deepEqual(out.find((e) => e.type === 'image/offload')!.data.targets, [{ seq: 9, index: 0 }]);
      assert.equal(out[out.length - 1].data.turn, 2);
    });
    it('§5: no insertion with an open step, an empty splice, or a splice not right before the turn/start', () => {
      const withStep = restarted().filter((e) => !(e.type === 'step/end' && e.data.turn === 1));
      withStep.forEach((e, i) => (e.seq = i));
      assert.equal(migrate(fixTitle(withStep)).events.length, withStep.length);
      const empty = restarted([]);
      assert.equal(migrate(empty).events.length, empty.length);
    });
    it('§5: a log ending in an open turn stays open', () => {
      const open = restarted().slice(0, 9);
      const out = migrate(open).events;
      assert.equal(out.filter((e) => e.type === 'turn/end').length, 1);
    });
  });

  describe('vocabulary and refusals (§5)', () => {
    it('§5: an unknown ignorable v3 type is renamed plugin:<type>, payload and surface metadata unchanged, only its seq moves', () => {
      const extension = {
        type: 'acme/thing',
        time: 1,
        data: { seq: 3 },
        ignorable: true as const,
        surfaceOp: 'append',
        sourceEventSeqs: [2],
      };
      const out = migratesAndRestores(withInserted(events, events.length, extension)).events;
      assert.deepEqual(out[events.length], { ...extension, type: 'plugin:acme/thing', seq: events.length });
    });
    it('§5: an unknown required v3 type is refused, even one v4 knows (developer/message)', () => {
      refuses(
        withInserted(events, events.length, { type: 'acme/thing', time: 1, data: {} }),
        `format v3 contains unknown event type "acme/thing" at seq ${events.length}`,
        SessionFormatUnsupportedMigrationError,
      );
      refuses(
        withInserted(events, events.length, { type: 'developer/message', time: 1, data: {} }),
        `format v3 contains unknown event type "developer/message" at seq ${events.length}`,
        SessionFormatUnsupportedMigrationError,
      );
    });
    it('§5 delivery guards: a v3 marker claiming generation 4 is refused; a foreign generation-3 marker only in a child’s inherited prefix', () => {
      const marker = (data: unknown) =>
        withInserted(events, events.length, { type: 'session-log-deepseek/delivery-accepted', time: 1, data });
      refuses(
        marker({ sessionId: 'session-v4', sessionFormatVersion: 4, throughSeq: 3 }),
        'format v3 delivery marker claims target format v4',
        SessionFormatUnsupportedMigrationError,
      );
      refuses(
        marker({ sessionId: 'other', sessionFormatVersion: 3, throughSeq: 3 }),
        'current-generation delivery marker names the wrong Session',
        SessionFormatError,
      );
      assert.doesNotThrow(() => migrate(marker({ sessionId: 'session-v4', sessionFormatVersion: 3, throughSeq: 3 })));
      assert.doesNotThrow(() => migrate(marker({ sessionId: 'other', sessionFormatVersion: 2, throughSeq: 99 })));
    });
    it('§5: events must be dense from 0', () => {
      const gap = structuredClone(events) as LooseEvent[];
      gap[3].seq = 9;
      refuses(gap, 'V3 source events must be dense', SessionFormatError);
    });
  });

  describe('seeded sessions and parent catalog facts (§5)', () => {
    it('§5: the last inherited end-seed marker sets the cut; an unseeded log may not have one', () => {
      const seeded = withInserted(events, 4, { type: 'session/end-seed', time: 1, data: { inherited: true } });
      assert.equal(migrate(seeded, { isSeeded: true, parentSession: 'p' }).cut, 4);
      refuses(seeded, 'unseeded format v3 Session contains an inherited end-seed marker', SessionFormatError);
      refuses(events, 'V3 inherited event count must be a non-negative safe integer', SessionFormatError, { isSeeded: true });
      assert.equal(migrate(seeded, { isSeeded: true, parentSession: 'p' }, [], 4).cut, 4);
      assert.throws(
        () => migrate(seeded, { isSeeded: true, parentSession: 'p' }, [], 3),
        /^SessionFormatError: format v3 inherited cut disagrees with its source marker$/,
      );
    });
    const child = (id: string, createdAt: number, descriptor: unknown, descriptorCount = descriptor === null ? 0 : 1) => ({
      childId: id,
      childCreatedAt: createdAt,
      descriptorCount,
      descriptor,
    });
    it('§5: missing entries are appended after the last event, by creation time then id, with its time', () => {
      const children = [
        child('b', 20, { version: 2, provider: 'p', mode: 'one-shot' }),
        child('a', 20, { version: 1, provider: 'p', label: 'helper' }),
        child('c', 10, null),
      ];
      const out = migratesAndRestores(events, {}, children).events;
      const appended = out.slice(events.length);
      assert.deepEqual(
        appended.map((e) => e.data),
        [
          { version: 1, childId: 'c', childCreatedAt: 10, mode: 'unknown' },
          { version: 0, childId: 'a', childCreatedAt: 20, mode: 'continuable', label: 'helper' },
          { version: 0, childId: 'b', childCreatedAt: 20, mode: 'one-shot' },
        ],
      );
      assert.deepEqual(
        appended.map((e) => [e.type, e.seq, e.time]),
        appended.map((_e, i) => ['subagent/catalog', events.length + i, events[events.length - 1].time]),
      );
    });
    it('§5: an existing own entry is kept; one that contradicts the child is refused; several descriptors give unknown mode', () => {
      const existing = withInserted(events, events.length, {
        type: 'subagent/catalog',
        time: 1,
        data: { version: 0, childId: 'a', childCreatedAt: 20, mode: 'one-shot' },
      });
      assert.equal(migrate(existing, {}, [child('a', 20, { version: 2, provider: 'p', mode: 'one-shot' })]).events.length, existing.length);
      refuses(existing, 'Session a conflicts with its parent catalog', SessionFormatUnsupportedMigrationError, {}, [child('a', 21, null)]);
      refuses(existing, 'Session a conflicts with its parent catalog', SessionFormatUnsupportedMigrationError, {}, [
        child('a', 20, { version: 3, provider: 'p', mode: 'continuable', label: 'x' }),
      ]);
      const several = migrate(events, {}, [child('z', 1, { version: 2, provider: 'p', mode: 'one-shot' }, 2)]).events;
      assert.equal(several[events.length].data.mode, 'unknown');
      const twice = withInserted(existing, existing.length, existing[existing.length - 1]);
      refuses(twice, 'duplicate catalog child a', SessionFormatUnsupportedMigrationError);
    });
    it('§5: child evidence must name a child and its descriptor; a supported descriptor needs a provider and mode', () => {
      assert.throws(() => createV3ToV4Migration([{ childId: 'x' }]), /requires historical child identity and descriptor evidence/);
      refuses(events, 'Session a has an invalid subagent descriptor provider', SessionFormatUnsupportedMigrationError, {}, [
        child('a', 1, { version: 2, mode: 'one-shot' }),
      ]);
      refuses(events, 'Session a has an invalid subagent descriptor mode', SessionFormatUnsupportedMigrationError, {}, [
        child('a', 1, { version: 2, provider: 'p', mode: 'x' }),
      ]);
    });
  });
});

/** Without its turn-1 step/end, the restart log's title would cite moved seqs; rebuild it from its messages. */
function fixTitle(list: LooseEvent[]): LooseEvent[] {
  const users = list.filter((e) => e.type === 'user/message' && e.surfaceOp === 'append').map((e) => e.seq);
  for (const e of list) if (e.type === 'session/title') e.data.messageSeqs = users;
  return list;
}
