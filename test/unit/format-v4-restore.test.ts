// The native v4 restore, one rule per test (spec §6 and §3–§4 as cited in each title): a crafted log
// that keeps the rule loads, the same log breaking it is refused with dsh's words (or ours, where the
// spec is silent and the message is marked so in the code). Relationships: format-v4-relationships.test.ts.
import { SessionFormatUnsupportedMigrationError } from '../../src/core/format';
import {
  artifactOf,
  baseV4Log,
  expectLoads as loads,
  expectRefused as refused,
  fixReferencesAfterInsert,
  fixSeqs,
  systemMessage,
  userMessage,
  withEvent,
  withInserted,
} from '../support/v4-artifacts';

const base = baseV4Log();
const events = base.list.events;
const at = base.seq;

describe('format v4 restore (spec §6)', () => {
  it('§6: the crafted base log (head, developer addition, tool-role result) loads', () => {
    loads(artifactOf(events));
  });

  describe('header (§3 v4 native)', () => {
    it('§3: exactly the v4 header fields, nothing else', () => {
      refused(artifactOf(events, { agentPreset: 'ptc', title: 'x' } as never), 'format v4 header has unexpected field title');
      const { isSeeded: _dropped, ...unseededHeader } = artifactOf(events).header;
      refused({ ...artifactOf(events), header: unseededHeader as never }, 'format v4 header lacks required field isSeeded');
      refused(artifactOf(events, { version: 3 }), 'expected format v4 header');
    });
    it('§3: cwd absolute, origin subagent, counts non-negative', () => {
      refused(artifactOf(events, { cwd: 'home/u' }), 'format v4 header cwd must be absolute');
      refused(artifactOf(events, { origin: 'user' }), 'format v4 header origin must be "subagent"');
      refused(artifactOf(events, { delegationDepth: -1 }), 'format v4 header delegationDepth must be a non-negative safe integer');
      loads(artifactOf(events, { origin: 'subagent', parentSession: 'p', agentPreset: 'ptc' }));
    });
  });

  describe('vocabulary and envelope (§6, §4)', () => {
    it('§6: an unknown required event type is refused, an unknown ignorable one kept opaque with its surface metadata unread', () => {
      const unknown = withInserted(events, 8, { type: 'future/thing', time: 1, data: { x: 1 } });
      refused(artifactOf(unknown), 'format v4 contains unknown event type "future/thing" at seq 8', SessionFormatUnsupportedMigrationError);
      const opaque = withInserted(events, 8, {
        type: 'future/thing',
        time: 1,
        data: null,
        ignorable: true,
        surfaceOp: 'bogus',
        sourceEventSeqs: [99],
      } as never);
      // References after the insertion point moved; put them back so only the opaque event differs.
      const fixed = fixReferencesAfterInsert(opaque, 8);
      loads(artifactOf(fixed));
    });
    it('§5 (v4 vocabulary): slots/dispatch is the fork’s own event, not upstream’s, so a required one is unknown', () => {
      const slots = withInserted(events, 8, { type: 'slots/dispatch', time: 1, data: {} });
      refused(
        artifactOf(fixReferencesAfterInsert(slots, 8)),
        /unknown event type "slots\/dispatch"/,
        SessionFormatUnsupportedMigrationError,
      );
    });
    it('§6: seqs are dense from 0', () => {
      const gap = structuredClone(events);
      gap[4].seq = 40;
      refused(artifactOf(gap), 'format v4 event 4 is not dense');
    });
    it('§4 envelope keys: only type, seq, time, data, ignorable, sourceEventSeqs, surfaceOp; ignorable exactly true', () => {
      refused(artifactOf(withEvent(events, 0, (e) => (e.meta = 1))), 'format v4 turn/start at seq 0 has unexpected field meta');
      refused(
        artifactOf(withEvent(events, 0, (e) => (e.ignorable = false))),
        'format v4 turn/start at seq 0 ignorable must be true when present',
      );
    });
  });

  describe('surface metadata (§6, §4)', () => {
    it('§6: every surface event needs surfaceOp (developer/message included)', () => {
      refused(artifactOf(withEvent(events, at.developer, (e) => delete e.surfaceOp)), 'developer/message surfaceOp requires an object');
      refused(artifactOf(withEvent(events, at.prompt, (e) => delete e.surfaceOp)), 'user/message surfaceOp requires an object');
    });
    it('§4: a known log-only event carries neither surface field', () => {
      refused(
        artifactOf(withEvent(events, 0, (e) => (e.surfaceOp = 'append'))),
        'format v4 turn/start at seq 0 has unexpected field surfaceOp',
      );
      refused(
        artifactOf(withEvent(events, 0, (e) => (e.sourceEventSeqs = [0]))),
        /turn\/start at seq 0 has unexpected field sourceEventSeqs/,
      );
    });
    it('§6: sourceEventSeqs non-empty, unique and earlier', () => {
      refused(
        artifactOf(withEvent(events, at.result, (e) => (e.sourceEventSeqs = []))),
        `format v4 tool/result at seq ${at.result} sourceEventSeqs must be a non-empty array`,
      );
      refused(
        artifactOf(withEvent(events, at.result, (e) => (e.sourceEventSeqs = [10, 10]))),
        `format v4 tool/result at seq ${at.result} sourceEventSeqs must be unique earlier seqs`,
      );
      refused(
        artifactOf(withEvent(events, at.result, (e) => (e.sourceEventSeqs = [11]))),
        `format v4 tool/result at seq ${at.result} sourceEventSeqs must be unique earlier seqs`,
      );
    });
    it('§6: assistant/message omits sourceEventSeqs, so it cannot replace a span', () => {
      refused(
        artifactOf(withEvent(events, at.answer, (e) => (e.sourceEventSeqs = [at.call]))),
        `format v4 assistant/message at seq ${at.answer} embeds its stream and cannot carry sourceEventSeqs`,
      );
      const replacing = withEvent(events, at.answer, (e) => (e.surfaceOp = { op: 'replace', startSeq: at.call, endSeq: at.call }));
      refused(artifactOf(replacing), 'replacement sourceEventSeqs requires an array');
    });
    it('§4: a replacement is exactly {op:"replace", startSeq, endSeq}', () => {
      const spelled = (op: unknown) => artifactOf(withEvent(events, at.result, (e) => (e.surfaceOp = op)));
      // The generation's own fold reads the endpoints before the installed session checks the spelling (dsh's order).
      refused(spelled({ op: 'replace', start: 3, end: 3 }), 'replacement start must be a non-negative safe integer');
      const extraKey = withEvent(events, at.developer, (e) => {
        e.surfaceOp = { op: 'replace', startSeq: at.prompt, endSeq: at.prompt, note: 1 };
        e.sourceEventSeqs = [at.prompt];
      });
      refused(artifactOf(extraKey), `format v4 developer/message at seq ${at.developer} requires exact replace fields op/startSeq/endSeq`);
    });
  });

  describe('request/header (§6)', () => {
    const header = (change: (data: any) => void) => artifactOf(withEvent(events, at.header, (e) => change(e.data)));
    it('§6: no header.system, not even empty', () => {
      refused(
        header((d) => (d.header.system = '')),
        'format v4 request/header rejects retired header.system',
      );
    });
    it('§6: config provider/model non-empty strings; reasoningEffort a non-empty string', () => {
      refused(
        header((d) => (d.header.config.model = '')),
        'format v4 request/header at seq 5 lacks provider/model',
      );
      refused(
        header((d) => (d.header.config.reasoningEffort = '')),
        'format v4 request/header at seq 5 has an invalid reasoningEffort',
      );
    });
    it('§6: reason is initial, resume, change or series; startsSeries true when present', () => {
      refused(
        header((d) => (d.reason = 'fallback')),
        'format v4 request/header at seq 5 has an invalid reason',
      );
      refused(
        header((d) => delete d.reason),
        'format v4 request/header at seq 5 has an invalid reason',
      );
      refused(
        header((d) => (d.startsSeries = false)),
        'format v4 request/header at seq 5 has an invalid startsSeries marker',
      );
      loads(header((d) => ((d.reason = 'series'), (d.startsSeries = true))));
    });
    it('§6: adapterDefaults only reasoningEffort/maxTokens: true with their config value', () => {
      loads(header((d) => ((d.header.config.maxTokens = 100), (d.header.adapterDefaults = { maxTokens: true }))));
      refused(
        header((d) => (d.header.adapterDefaults = { maxTokens: true })),
        'format v4 request/header at seq 5 has invalid adapterDefaults',
      );
      refused(
        header((d) => (d.header.adapterDefaults = { temperature: true })),
        'format v4 request/header at seq 5 has invalid adapterDefaults',
      );
    });
    it('§6: empty tools or adapterDefaults are written as absent', () => {
      const noDeveloper = withEvent(events, at.developer, (e) => {
        e.data.headerSeq = undefined;
        delete e.data.headerSeq;
        e.data.message.content = [{ type: 'text', text: 'note' }];
      });
      refused(
        artifactOf(withEvent(noDeveloper, at.header, (e) => (e.data.header.tools = []))),
        'format v4 request/header at seq 5 empty optional header fields must be omitted',
      );
      refused(
        header((d) => (d.header.adapterDefaults = {})),
        'format v4 request/header at seq 5 empty optional header fields must be omitted',
      );
    });
    it('§5/§6: a request tool’s deferLoading must be exactly true', () => {
      refused(
        header((d) => (d.header.tools[1].deferLoading = false)),
        'format v4 tool deferLoading must be true when present',
      );
    });
  });

  describe('tool/result as a tool-role message (§6)', () => {
    const result = (change: (message: any, data: any) => void) =>
      artifactOf(withEvent(events, at.result, (e) => change(e.data.message, e.data)));
    it('§6: role tool, non-empty id', () => {
      refused(
        result((m) => (m.role = 'user')),
        `format v4 tool/result at seq ${at.result} requires a tool-role message`,
      );
      refused(
        result((m) => (m.id = '')),
        `format v4 tool/result at seq ${at.result} requires a first-class message with a string id`,
      );
    });
    it('§6: toolCallId equal to source.callId, tool source', () => {
      refused(
        result((m) => (m.toolCallId = 'other')),
        `format v4 tool/result at seq ${at.result} requires toolCallId matching its tool source`,
      );
      refused(
        result((m) => (m.source.kind = 'user')),
        `format v4 tool/result at seq ${at.result} requires a tool source`,
      );
    });
    it('§6: direct array content without a tool-result block', () => {
      refused(
        result((m) => (m.content = 'text')),
        `format v4 tool/result at seq ${at.result} requires array content`,
      );
      refused(
        result((m) => (m.content = [{ type: 'tool-result', toolCallId: 'call-1', content: [] }])),
        `format v4 tool/result at seq ${at.result} content must not contain a released tool-result wrapper`,
      );
    });
    it('§6: isError boolean; data.error requires isError: true', () => {
      refused(
        result((m) => (m.isError = 'yes')),
        `format v4 tool/result at seq ${at.result} isError must be boolean when present`,
      );
      refused(
        result((_m, d) => (d.error = { name: 'Error', code: 'X' })),
        `format v4 tool/result at seq ${at.result} carries error metadata for a non-error tool result`,
      );
      loads(result((m, d) => ((m.isError = true), (d.error = { name: 'Error', code: 'X' }))));
    });
  });

  describe('system/message (§6, §4 protected head)', () => {
    const system = (change: (message: any, data: any) => void) =>
      artifactOf(withEvent(events, at.head, (e) => change(e.data.message, e.data)));
    it('§6: positive turn and step, role system, array content', () => {
      refused(
        system((_m, d) => (d.step = 0)),
        'format v4 system/message step must be positive',
      );
      refused(
        system((m) => (m.role = 'user')),
        'format v4 system message requires system role',
      );
      refused(
        system((m) => (m.content = null)),
        'format v4 system message requires content array',
      );
      refused(
        system((m) => (m.content = [{ type: 'text', text: 7 }])),
        'format v4 system content text requires a string',
      );
    });
    it('§6: a system-prompt source', () => {
      refused(
        system((m) => (m.source = { kind: 'runtime-context' })),
        'format v4 system/message at seq 2 message must have system-prompt source',
      );
      refused(
        system((m) => (m.source = { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' })),
        'format v4 message requires a producer-owned source kind',
      );
    });
    it('§6: a system message belongs to an open step', () => {
      const outside = structuredClone(events);
      [outside[1], outside[2]] = [outside[2], outside[1]];
      outside.forEach((e, i) => (e.seq = i));
      outside[1].surfaceOp = 'append';
      refused(artifactOf(fixSeqs(outside)), 'system/message does not match an open turn and step');
    });
    it('§4: only a system message covering exactly the head replaces it; the head moves to the replacement', () => {
      const replaced = withInserted(events, at.prompt, {
        type: 'system/message',
        time: 1,
        data: systemMessage(1, 1, 's2', 'New prompt.'),
        surfaceOp: { op: 'replace', startSeq: at.head, endSeq: at.head },
        sourceEventSeqs: [at.head],
      });
      loads(artifactOf(fixReferencesAfterInsert(replaced, at.prompt)));
      const byUser = withEvent(events, at.answer, (e) => {
        e.type = 'user/message';
        e.data = userMessage('u9', 'overwrite');
        e.surfaceOp = { op: 'replace', startSeq: at.head, endSeq: at.head };
        e.sourceEventSeqs = [at.head];
      });
      refused(artifactOf(byUser), 'surface replacement cannot shadow the protected system head');
      const wider = withEvent(events, at.answer, (e) => {
        e.type = 'system/message';
        e.data = systemMessage(1, 2, 's3', 'x');
        e.surfaceOp = { op: 'replace', startSeq: at.head, endSeq: at.prompt };
        e.sourceEventSeqs = [at.head, at.prompt];
      });
      refused(artifactOf(wider), 'surface replacement cannot shadow the protected system head');
    });
    it('§4: once the surface opened without a system head, a later system/message is refused', () => {
      const userFirst = withEvent(events, at.head, (e) => ((e.type = 'user/message'), (e.data = userMessage('u0', 'first'))));
      const later = withEvent(
        userFirst,
        7,
        (e) => ((e.type = 'system/message'), (e.data = systemMessage(1, 1, 's9', 'late')), (e.surfaceOp = 'append')),
      );
      refused(artifactOf(later), 'system/message requires a protected first surface head');
    });
  });

  describe('developer/message (§5 new in v4, §6)', () => {
    const developer = (change: (data: any) => void) => artifactOf(withEvent(events, at.developer, (e) => change(e.data)));
    it('§6: role developer, positive turn/step, id, producer-owned source', () => {
      refused(
        developer((d) => (d.message.role = 'user')),
        'format v4 developer/message requires turn, step, and a developer message',
      );
      refused(
        developer((d) => (d.turn = 0)),
        'developer/message turn must be positive',
      );
      refused(
        developer((d) => (d.message.id = '')),
        'format v4 developer message requires id, role, content, and a producer-owned source',
      );
      refused(
        developer((d) => (d.message.source = { kind: 'plugin', plugin: 'x' })),
        'format v4 developer message requires id, role, content, and a producer-owned source',
      );
    });
    it('§6: tool-addition/tool-removal blocks need a toolName; additions carry no inline tool', () => {
      refused(
        developer((d) => (d.message.content = [{ type: 'tool-addition' }])),
        'format v4 tool-addition requires a nonempty toolName',
      );
      refused(
        developer((d) => (d.message.content[0].tool = {})),
        'format v4 tool-addition must omit inline tool definitions',
      );
    });
    it('§6: headerSeq required iff additions', () => {
      refused(
        developer((d) => delete d.headerSeq),
        'developer/message headerSeq must be a non-negative safe integer',
      );
      refused(
        developer((d) => (d.message.content = [{ type: 'tool-removal', toolName: 'read' }])),
        'format v4 developer/message must omit headerSeq without tool additions',
      );
      const removal = developer((d) => {
        delete d.headerSeq;
        d.message.content = [{ type: 'tool-removal', toolName: 'read' }];
      });
      loads(removal);
    });
    it('§6: headerSeq names an earlier request/header with exactly one complete definition of each added tool', () => {
      refused(
        developer((d) => (d.headerSeq = at.prompt)),
        'developer/message headerSeq must reference an earlier request/header',
      );
      refused(
        developer((d) => (d.headerSeq = 40)),
        'developer/message headerSeq must name an earlier event',
      );
      refused(
        developer((d) => (d.message.content[0].toolName = 'write')),
        'developer/message tool-addition "write" must name exactly one tool in headerSeq 5',
      );
      const twice = withEvent(events, at.header, (e) => e.data.header.tools.push(e.data.header.tools[1]));
      refused(artifactOf(twice), 'developer/message tool-addition "read" must name exactly one tool in headerSeq 5');
      const incomplete = withEvent(events, at.header, (e) => delete e.data.header.tools[1].description);
      refused(artifactOf(incomplete), 'developer/message tool-addition "read" requires a complete tool definition in headerSeq 5');
    });
    it('§6: a developer message belongs to an open step', () => {
      refused(
        developer((d) => (d.step = 2)),
        'developer/message does not match an open turn and step',
      );
    });
    it('§6: tool-change blocks only in developer messages, never in other slots or stream block records', () => {
      refused(
        artifactOf(withEvent(events, at.prompt, (e) => e.data.content.push({ type: 'tool-removal', toolName: 'x' }))),
        'format v4 tool-removal requires developer role',
      );
      const stream = withEvent(events, at.answer, (e) =>
        e.data.stream.unshift({ type: 'chunk', time: 1, chunk: { type: 'block-start', index: 0, blockType: 'tool-addition' } }),
      );
      refused(artifactOf(stream), 'format v4 tool-change blocks require developer role');
      refused(
        artifactOf(withEvent(events, at.prompt, (e) => (e.data.role = 'developer'))),
        'format v4 developer/message and developer role must occur together',
      );
    });
  });

  describe('interpreted message sources (§6)', () => {
    it('§6: every interpreted slot needs an object source whose kind is non-empty and not plugin', () => {
      refused(
        artifactOf(withEvent(events, at.prompt, (e) => (e.data.source = { kind: 'plugin', plugin: 'compact' }))),
        'format v4 message requires a producer-owned source kind',
      );
      refused(
        artifactOf(withEvent(events, at.prompt, (e) => (e.data.source = { kind: '' }))),
        'format v4 message requires a producer-owned source kind',
      );
      const spliced = withInserted(events, 0, {
        type: 'agent/inbox/spliced',
        time: 1,
        data: { target: 'next-turn', start: 0, inserted: [{ ...(userMessage('u0', 'x') as object), source: 'user' }] },
      });
      refused(artifactOf(fixReferencesAfterInsert(spliced, 0)), 'format v4 message requires a producer-owned source kind');
      loads(artifactOf(withEvent(events, at.developer, (e) => (e.data.message.source = { kind: 'plugin:acme', note: 1 }))));
    });
  });

  describe('retired syntax (§6)', () => {
    it('§6: a required tool/code-dispatch is refused; an ignorable one stays opaque', () => {
      const dispatch = { type: 'tool/code-dispatch-start', time: 1, data: { subCallId: 'x' } };
      refused(
        artifactOf(fixReferencesAfterInsert(withInserted(events, 10, dispatch), 10)),
        /unknown event type "tool\/code-dispatch-start"/,
        SessionFormatUnsupportedMigrationError,
      );
      loads(artifactOf(fixReferencesAfterInsert(withInserted(events, 10, { ...dispatch, ignorable: true }), 10)));
    });
    it('§6: a tool-result block in a user message, a compaction summary or a stream block end', () => {
      refused(
        artifactOf(withEvent(events, at.prompt, (e) => e.data.content.push({ type: 'tool-result', toolCallId: 'c', content: [] }))),
        'format v4 user/message at seq 3 content must not contain a released tool-result wrapper',
      );
      const stream = withEvent(events, at.answer, (e) =>
        e.data.stream.unshift({
          type: 'chunk',
          time: 1,
          chunk: { type: 'block-end', index: 0, block: { type: 'tool-result', toolCallId: 'c', content: [] } },
        }),
      );
      refused(
        artifactOf(stream),
        `format v4 assistant/message at seq ${at.answer} content must not contain a released tool-result wrapper`,
      );
    });
  });
});
