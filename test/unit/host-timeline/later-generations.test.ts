// The timeline over logs of dsh's later generations (v2–v4): a generated v4 fork (protected system
// head replaced by system prompts, developer messages, an attempt, tool-role results, compactions and
// prunes) and the real v3 and v4 samples. The Model view equals deriveMessages, the new types are
// worded, the stream inside a message reaches the inspector (and a changed piece shows as a reassembly
// mismatch), the later links lead both ways, the seed comes from the end-seed marker, the Time view
// takes the first token from the stream and leaves out times that cannot be real, and the summary
// carries today's dsh's verdict.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSessionFile } from '../../../src/core';
import { handleRequest } from '../../../src/host/timeline/request-handlers';
import { SessionTimeline } from '../../../src/host/timeline/session-timeline';
import { Formatter } from '../../../src/present';
import { isResponseMessage, type EventDetail, type RowWindow, type SessionSummary, type TimeSpans } from '../../../src/protocol';
import { scaleV4LogText } from '../../support/log-generator-v4.mjs';
import { hasShared, sharedDir } from '../../support/paths';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });
const utf8 = new TextEncoder();

function timelineOf(text: string, fileName = 's.jsonl'): SessionTimeline {
  const bytes = utf8.encode(text);
  return new SessionTimeline(loadSessionFile(bytes, { fileName }), 1, fmt, {
    summaryContext: () => ({
      fileName,
      filePath: `/tmp/${fileName}`,
      turns: 0,
      file: { state: 'following', size: bytes.length, mtimeMs: 0 },
      followLiveLogs: true,
      fileBytes: bytes.length,
      restrictedMode: false,
      loadMs: 1,
    }),
    reveal: async () => true,
    reload: () => {},
  });
}

async function result<T>(t: SessionTimeline, method: string, params: unknown): Promise<T> {
  const response = await handleRequest(t, { type: 'request', id: 1, method, params }, () => {});
  assert.ok(response && isResponseMessage(response), `a valid response: ${JSON.stringify(response).slice(0, 300)}`);
  assert.ok(response.ok, JSON.stringify(response));
  return response.result as T;
}

const detail = (t: SessionTimeline, seq: number) => result<EventDetail>(t, 'eventDetail', { seq });

/** The generated v4 fork the end-to-end tests open too: three system replacements, five developer messages, an attempt. */
const generated = scaleV4LogText({ params: { targetEvents: 600, compactEvery: 8, keepTurns: 2, pruneEvery: 3 }, seed: 7, name: 'e2e' });

function seqsOf(t: SessionTimeline, type: string): number[] {
  const out: number[] = [];
  for (let seq = 0; seq < t.log.eventCount; seq++) if (t.log.eventType(seq) === type) out.push(seq);
  return out;
}

describe('host timeline: dsh v2–v4 logs', () => {
  const t = timelineOf(generated.text);
  const log = t.log;

  it('reads the generated v4 fork as v4 with every feature the tests rely on', () => {
    assert.equal(log.verdict.ok, true, JSON.stringify(log.verdict));
    assert.equal(log.format.version, 4);
    assert.ok(generated.generator.stats.systemReplacements >= 2 && generated.generator.stats.attempts >= 1);
  });

  it('Model view rows are exactly the derived messages, system and developer messages included', async () => {
    const w = await result<RowWindow>(t, 'rows', { order: 'surface', start: 0, count: 2000 });
    const derived = log.deriveMessages();
    assert.equal(w.total, derived.length);
    assert.deepEqual(
      w.rows.map((r) => (r.type === 'tool/result' ? 'tool' : r.type.split('/')[0])),
      derived.map((m) => m.role),
    );
    assert.equal(w.rows[0].type, 'system/message', 'the model reads the system prompt first');
    assert.equal(w.rows[0].seq, log.protectedHead());
  });

  it('words the later types and marks the protected system head (replaced, the head is the latest prompt)', async () => {
    const w = await result<RowWindow>(t, 'rows', { order: 'log', start: 0, count: 2000 });
    const byType = (type: string) => w.rows.filter((r) => r.type === type);
    assert.equal(byType('system/message')[0].label, 'System prompt');
    assert.match(byType('system/message')[0].summary, /^"You are an AI agent/);
    assert.match(byType('developer/message')[0].summary, /^adds web_fetch \(request header seq \d+\)$/);
    assert.match(byType('assistant/attempt')[0].summary, /^did not settle: error OVERLOADED; 1 stream record$/);
    assert.equal(byType('assistant/attempt')[0].label, 'Model attempt');
    const heads = w.rows.filter((r) => r.systemHead);
    assert.equal(heads.length, 1, 'one protected head');
    assert.equal(heads[0].seq, log.protectedHead());
    assert.equal(log.surface()[0], heads[0].seq);
    const replaced = byType('system/message').filter((r) => r.surface === 'shadowed');
    assert.ok(replaced.length >= 2, 'the earlier prompts are shadowed by their replacements');
    // The seed ends at the end-seed marker the fork wrote.
    const seed = log.inheritedEventCount!;
    assert.equal(seed, generated.generator.inheritedEventCount);
    assert.ok(w.rows.slice(0, seed).every((r) => r.inherited) && !w.rows[seed].inherited);
    const summary = await result<SessionSummary>(t, 'summary', {});
    assert.equal(summary.lineage?.seedLength, seed);
  });

  it('shows the stream inside an assistant message, each record linked to its block, and a changed piece as a mismatch', async () => {
    const message = seqsOf(t, 'assistant/message').find((s) => s > 40)!;
    const d = await detail(t, message);
    assert.ok(d.stream, 'the stream is in the detail');
    const packed = d.stream.records.filter((r) => r.kind !== 'chunk');
    assert.ok(packed.length > 0 && packed.every((r) => r.block !== undefined && r.time !== undefined && r.offsetText?.startsWith('+')));
    assert.deepEqual(d.stream.mismatches, []);
    assert.ok(d.stream.firstTokenText, 'time to first token from the step start');
    assert.ok(
      d.fields.every((f) => f.name !== 'stream'),
      'the stream is not repeated as a raw field',
    );
    // One piece changed in the file: the stream no longer spells the message.
    const lines = generated.text.split('\n');
    const line = log.place(message)!.line - 1;
    const event = JSON.parse(lines[line]);
    const record = event.data.stream.find((r: { type: string }) => r.type === 'text-chunks' || r.type === 'reasoning-chunks');
    record.texts[0] = `${record.texts[0]}XYZ`;
    lines[line] = JSON.stringify(event);
    const changed = await detail(timelineOf(lines.join('\n')), message);
    assert.equal(changed.stream?.mismatches.length, 1);
    assert.equal(changed.stream?.mismatches[0].block, record.index);
    assert.ok(changed.stream?.records.some((r) => r.mismatch && r.block === record.index));
  });

  it('links a developer message and its request header both ways, and an attempt to its step and the message that settled', async () => {
    const developer = seqsOf(t, 'developer/message')[0];
    const dev = await detail(t, developer);
    const header = dev.links.find((l) => l.relation === 'requestHeader');
    assert.ok(header && t.log.eventType(header.target) === 'request/header');
    assert.ok(dev.blocks.some((b) => b.kind === 'toolChange' && b.added && b.toolName === 'web_fetch'));
    const back = await detail(t, header.target);
    assert.ok(back.links.some((l) => l.relation === 'toolChange' && l.target === developer));
    const attempt = seqsOf(t, 'assistant/attempt')[0];
    const a = await detail(t, attempt);
    assert.ok(a.stream && a.stream.records[0].what.startsWith('finish error OVERLOADED'));
    const step = a.links.find((l) => l.relation === 'step');
    const settled = a.links.find((l) => l.relation === 'settledBy');
    assert.equal(t.log.eventType(step!.target), 'step/start');
    assert.equal(t.log.eventType(settled!.target), 'assistant/message');
    const m = await detail(t, settled!.target);
    assert.ok(m.links.some((l) => l.relation === 'attempt' && l.target === attempt));
  });

  it('Time view: model spans take their first token from the stream; times that cannot be real are left out and counted', async () => {
    const spans = await result<TimeSpans>(t, 'timeSpans', { maxSpans: 50_000 });
    const model = spans.spans.filter((s) => s.kind === 'assistant');
    assert.ok(model.length > 0 && model.every((s) => s.firstTokenMs !== undefined && s.firstTokenMs >= 0));
    assert.equal(spans.ignoredTimes, undefined);
    assert.match(model[0].label, /^Model, turn \d+ step \d+$/);
    // Zeroed times (as dsh's snapshot writers leave them): left out of the range, counted, not shown as "0".
    const zeroed = generated.text
      .split('\n')
      .map((l, i) => (i > 0 && i % 5 === 0 && l ? l.replace(/"time":\d+/, '"time":0') : l))
      .join('\n');
    const z = timelineOf(zeroed);
    const out = await result<TimeSpans>(z, 'timeSpans', { maxSpans: 50_000 });
    assert.ok(out.ignoredTimes! > 20, `ignored ${out.ignoredTimes}`);
    assert.match(out.ignoredNote!, /record a time that cannot be real/);
    assert.ok(out.first! >= (generated.generator.header.createdAt as number), 'the range starts at a real time, not 1970');
    const rows = await result<RowWindow>(z, 'rows', { order: 'log', start: 0, count: 30 });
    const zeroRow = rows.rows.find((r) => r.time === 0)!;
    assert.equal(zeroRow.timeText, undefined, 'no "0" in the time column');
    assert.match((await detail(z, zeroRow.seq)).timeText!, /not a real time/);
  });

  it('the summary names the format and carries today’s dsh’s verdict once it is read', async () => {
    const before = await result<SessionSummary>(t, 'summary', {});
    assert.equal(before.upgrade, undefined);
    assert.equal(before.facts.find((f) => f.name === 'format')?.value, 'v4 (dsh 0.1.7 and 0.2.x)');
    t.readUpgrade();
    const after = await result<SessionSummary>(t, 'summary', {});
    assert.deepEqual({ ok: after.upgrade?.ok, label: after.upgrade?.label }, { ok: true, label: "Today's dsh opens this log" });
  });
});

describe('host timeline: the real v3 and v4 samples', function () {
  before(function () {
    if (!hasShared()) {
      if (process.env.CI === 'true') throw new Error('CI=true and the shared corpus is missing');
      this.skip();
    }
  });
  const sample = (name: string) => readFileSync(join(sharedDir(), 'fixtures', 'dsh-real', name), 'utf8');

  it('v3: the head replaced by a system prompt is protected, and today’s dsh’s refusal is in the summary and the diagnostics', async () => {
    const t = timelineOf(sample('v3-catchup-sanitized-excerpt.jsonl'));
    const rows = await result<RowWindow>(t, 'rows', { order: 'log', start: 0, count: 100 });
    const head = rows.rows.find((r) => r.systemHead)!;
    assert.equal(head.type, 'system/message');
    assert.equal(rows.rows.find((r) => r.seq === 3)?.summary, 'no system prompt (empty)');
    assert.equal(rows.rows.find((r) => r.seq === 3)?.surface, 'shadowed');
    const surface = await result<RowWindow>(t, 'rows', { order: 'surface', start: 0, count: 100 });
    assert.equal(surface.total, t.log.deriveMessages().length);
    t.readUpgrade();
    const s = await result<SessionSummary>(t, 'summary', {});
    assert.equal(s.verdict.ok, true);
    assert.equal(s.upgrade?.ok, false);
    assert.equal(s.upgrade?.stage, 'restore');
    assert.match(s.upgrade!.dshText!, /format v4 request\/header at seq 7 has an invalid reason/);
    assert.ok(t.diagnostics().list.some((d) => d.rule === 'upgrade.restore' && d.severity === 'warning'));
  });

  it('v4: every row is worded, and the Model view equals deriveMessages', async () => {
    const t = timelineOf(sample('v4-catchup-sanitized-headless-run.jsonl'));
    const rows = await result<RowWindow>(t, 'rows', { order: 'log', start: 0, count: 100 });
    for (const type of ['permission/preset', 'sandbox/mode', 'approval/policy', 'system/message', 'session/title-llm-request'])
      assert.notEqual(rows.rows.find((r) => r.type === type)?.label, type, `${type} has a label`);
    const surface = await result<RowWindow>(t, 'rows', { order: 'surface', start: 0, count: 100 });
    assert.equal(surface.total, t.log.deriveMessages().length);
  });

  it('a v0 log that dsh 0.1 refuses as written by a newer harness is told that today’s dsh opens it', async () => {
    const mutation = join(sharedDir(), 'conformance', 'mutations', 'goal-multi-turn--retired-compact-start-name.jsonl');
    const t = timelineOf(readFileSync(mutation, 'utf8'), 'session.jsonl');
    assert.equal(t.log.verdict.ok, false);
    assert.match(t.log.verdict.dshError!, /newer harness/);
    const upgrade = t.readUpgrade();
    const s = await result<SessionSummary>(t, 'summary', {});
    if (upgrade.ok) assert.match(s.verdict.note!, /No newer harness is needed/);
    else assert.match(s.verdict.note!, /A newer harness would not help/);
  });
});
