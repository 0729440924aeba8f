// The public API given what the campaign found it trusted: an unknown, unignorable event type in
// an append; cyclic values, holes, and huge or lying lengths in the text helpers; byte inputs that are
// Proxies, lying subclasses or detached; a shared (not cyclic) part; serializers and pending edits given
// values they cannot write; seq lists that are not seqs. Each answers with a result or a typed refusal,
// in time bounded by what it reads, not by what a value claims.
import { strict as assert } from 'node:assert';
import * as core from '../../src/core';
import { jsonText as logJsonText } from '../../src/core/value-text';
import { richLog } from '../support/build-log';

const title = (seq: number, type = 'session/title') => ({
  type,
  seq,
  time: 0,
  data: { title: 't', messageSeqs: [], source: { kind: 'fallback' } },
});

/** Runs `f` and says how long it took. */
function timed<T>(f: () => T): { value: T; ms: number } {
  const started = Date.now();
  const value = f();
  return { value, ms: Date.now() - started };
}

describe('hostile input, round three: the API', function () {
  this.timeout(60_000);
  const bytes = richLog().bytes();

  it('append and planAppend refuse an event type that is neither known nor ignorable; the log stays as it was', () => {
    for (const type of ['constructor', 'zz', '__proto__']) {
      const log = core.loadSession(bytes);
      const next = log.eventCount;
      const problems = log.planAppend([title(next, type)] as never);
      assert.equal(problems[0]?.rule, 'vocabulary.unknown-types', type);
      assert.equal(log.append([title(next, type)] as never).ok, false);
      assert.equal(log.verdict.ok, true);
      assert.equal(log.eventCount, next);
      // Marked ignorable, it is what dsh lets pass.
      assert.deepEqual(log.planAppend([{ ...title(next, type), ignorable: true }] as never), []);
    }
  });

  describe('the text helpers', () => {
    it('jsonText of a cyclic value answers at once: undefined from the public one, null where it repeats from the log one', () => {
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      assert.equal(core.jsonText(cyclic), undefined);
      assert.equal(logJsonText(cyclic), '{"a":1,"self":null}');
    });

    it('valueText of arrays with holes, a 10^7-element array and a Proxy claiming 2^32−1 elements is cut at its length, at once', () => {
      // eslint-disable-next-line no-sparse-arrays
      assert.equal(core.valueText([1, , 3]), '[1,undefined,3]');
      assert.equal(core.valueText(new Array(3)), '[undefined,undefined,undefined]');
      const lying = new Proxy([], {
        get: (t, k) => (k === 'length' ? 2 ** 32 - 1 : typeof k === 'string' && /^\d+$/.test(k) ? 0 : Reflect.get(t, k)),
      });
      for (const value of [new Array(10_000_000).fill(7), lying]) {
        const { value: text, ms } = timed(() => core.valueText(value, 60));
        assert.ok(text.length <= 60 && text.startsWith('['), text);
        assert.ok(ms < 200, `${ms} ms`);
      }
    });

    it('a part shared by two members is plain JSON, not "a value that contains itself"', () => {
      const part = { kind: 'fallback' };
      const log = core.loadSession(bytes);
      const event = { ...title(log.eventCount), data: { title: 't', messageSeqs: [], source: part, again: part } };
      assert.equal(typeof core.serializeEvent(event as never), 'string');
      assert.equal(core.jsonText({ a: part, b: [part] }), '{"a":{"kind":"fallback"},"b":[{"kind":"fallback"}]}');
      // Shared forty levels down it would be 2^40 values written out: refused as too large, at once.
      let dag: unknown = { leaf: 1 };
      for (let i = 0; i < 40; i++) dag = { l: dag, r: dag };
      const { value, ms } = timed(() => core.jsonText(dag));
      assert.equal(value, undefined);
      assert.ok(ms < 200, `${ms} ms`);
    });
  });

  describe('byte inputs', () => {
    class Lying extends Uint8Array {
      override get length(): number {
        return 2 ** 31;
      }
      override indexOf(): number {
        throw new Error('indexOf');
      }
      override subarray(): never {
        throw new Error('subarray');
      }
    }
    const detached = () => {
      const b = new Uint8Array(8);
      structuredClone(b.buffer, { transfer: [b.buffer] });
      return b;
    };
    for (const [what, make, reads] of [
      ['a Proxy of a Uint8Array', () => new Proxy(new Uint8Array(bytes), {}), false],
      ['a detached Uint8Array', detached, false],
      ['a subclass with a lying length and throwing methods', () => Lying.from(bytes), true],
    ] as const) {
      it(`${what}: every load function refuses it as bad input, or reads the bytes it really holds`, async () => {
        for (const load of [
          () => core.loadSession(make() as never),
          () => core.loadSessionFile(make() as never).log,
          () => {
            const log = new core.SessionLog(make() as never);
            log.ingest();
            return log;
          },
        ]) {
          const log = load();
          if (reads) assert.equal(log.eventCount, core.loadSession(bytes).eventCount);
          else if (log.scan.fileBytes > 0 || log.eventCount > 0) assert.fail('read bytes it should refuse');
        }
        assert.equal((await core.loadSessionFileAsync(make() as never)).log.verdict.ok, reads);
        const followed = core.loadSessionFile(bytes.subarray(0, 200));
        const extended = core.extendLoadedFile(followed, make() as never);
        assert.ok(reads || extended.diagnostics[0]?.rule === 'api.bad-input');
      });
    }
  });

  describe('typed refusals instead of exceptions', () => {
    it('the serializers refuse what dsh cannot write, and say why', () => {
      const refused = core.serializeCloser({ ...title(1), time: Infinity } as never);
      assert.ok(typeof refused !== 'string' && refused.reasons[0].rule === 'json.lossless-values');
      assert.ok(typeof core.serializeEvent(null as never) !== 'string');
      assert.ok(typeof core.serializeHeader(undefined as never) !== 'string');
    });

    it('deriveMessages and balancedCuts given seqs that are no seqs of the log give none, never a SyntaxError', () => {
      const log = core.loadSession(bytes);
      for (const nodes of [[1.5], [NaN], [-1], [10 ** 9], ['1'], [1n]]) {
        assert.deepEqual(log.deriveMessages(nodes as never), []);
        assert.ok('error' in log.balancedCuts(nodes as never));
      }
    });

    it('pending edits refuse an edit that is not plain JSON, and a log that shrank, with reasons', () => {
      const edits = new core.PendingEdits(10);
      const cyclic: Record<string, unknown> = { kind: 'prune', seq: 3, content: [] };
      cyclic.options = cyclic;
      const refused = edits.push(cyclic as never);
      assert.equal('severity' in refused ? refused.rule : undefined, 'api.bad-input');
      assert.equal(edits.count, 0);
      assert.equal(edits.rebase(5)?.rule, 'edit.log-shrank');
      assert.equal(edits.base, 10);
    });

    it('the guarded entry points answer a Proxy that poses as a loaded log', () => {
      const log = core.loadSession(bytes);
      const posing = new Proxy(log, {});
      assert.equal(core.isSessionLog(posing), false);
      assert.equal(core.checkInvariants(posing)[0].rule, 'api.bad-input');
      assert.equal(core.provenanceIndex(posing).sourcesOf(1).length, 0);
      assert.equal(core.inspectLog(posing).ok, false);
      assert.equal(core.planRepair(posing).ok, false);
      assert.equal(core.reviewOpenTurn(posing), undefined);
    });
  });
});
