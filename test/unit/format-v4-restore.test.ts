// The native v4 restore, one rule per test (spec §6 and §3–§4 as cited in each title): a crafted log
// that keeps the rule loads, the same log breaking it is refused with dsh's words (or ours, where the
// spec is silent and the message is marked so in the code).
import { strict as assert } from 'node:assert';
import type { Artifact } from '../../src/core/format';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../../src/core/format';
import { assertV4RowAdmission, restoreV4, restoreV4Generation } from '../../src/core/format/v3-to-v4';
import {
  artifactOf,
  baseV4Log,
  EventList,
  systemMessage,
  userMessage,
  withEvent,
  withInserted,
  type LooseEvent,
} from '../support/v4-artifacts';

function refused(artifact: Artifact, message: string | RegExp, errorClass: Function = SessionFormatError): void {
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

function loads(artifact: Artifact): void {
  assert.equal(restoreV4(artifact), artifact);
}

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

/** Seqs made dense again after removing or swapping events (references are the test's business). */
function fixSeqs(list: LooseEvent[]): LooseEvent[] {
  list.forEach((e, i) => (e.seq = i));
  return list;
}

/** After an insertion at `at`, references to events at or after it move up by one. */
function fixReferencesAfterInsert(list: LooseEvent[], at: number): LooseEvent[] {
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
