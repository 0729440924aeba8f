// The physical reader of the generations layer (dsh's v3-era JSONL persistence): torn tails, CRLF,
// unparsable rows (worded per generation role, fatal only before a later turn/end, the work after the
// damage bounded), and the zstd container rules.
import { strict as assert } from 'node:assert';
import { concatBytes, encodeDshZstdLog, encodeRawZstdFrame } from '../../src/core/zstd';
import { logBytes, logText, physicalHeader, plainTurn, read } from '../support/format-logs';

const enc = new TextEncoder();

describe('format physical reader: JSONL', () => {
  it('drops a final line without LF (torn tail); a strict read refuses it after decoding', () => {
    const rows = plainTurn();
    const torn = logText(physicalHeader(1), rows.slice(0, 5), { tail: JSON.stringify(rows[5]) });
    const recoverable = read(enc.encode(torn)).verdict;
    assert.deepEqual([recoverable.ok, recoverable.events], [true, 5]);
    const strict = read(enc.encode(torn), 1, { recovery: 'strict' }).verdict;
    assert.deepEqual(
      [strict.ok, strict.stage, strict.errorName, strict.dshError],
      [false, 'bytes', 'Error', 'current session generation has a torn physical tail'],
    );
  });

  it('accepts CRLF line ends, with the same events and digest as LF', () => {
    const lf = read(logBytes(physicalHeader(0), plainTurn())).verdict;
    const crlf = read(logBytes(physicalHeader(0), plainTurn(), { crlf: true })).verdict;
    assert.equal(crlf.ok, true);
    assert.deepEqual([crlf.events, crlf.sha256], [lf.events, lf.sha256]);
  });

  it('words an unparsable row by the role of the read: a migrated generation names the row', () => {
    const rows: unknown[] = plainTurn();
    rows[2] = 'not json';
    const migrated = read(logBytes(physicalHeader(0), rows)).verdict;
    assert.deepEqual(
      [migrated.stage, migrated.errorName, migrated.dshError, migrated.line, migrated.throwLine],
      ['jsonl', 'Error', 'corrupt session log: row 3 is not valid JSON', 4, 7],
    );
    const current = read(logBytes(physicalHeader(1), rows)).verdict;
    assert.equal(current.dshError, 'corrupt session log: unparsable committed event at line 3');
  });

  it('without a later turn/end the damage ends the accepted prefix; a blank line is damage too', () => {
    const rows: unknown[] = plainTurn().slice(0, 5);
    rows.push('');
    const verdict = read(logBytes(physicalHeader(0), rows)).verdict;
    assert.deepEqual(
      [verdict.ok, verdict.events, verdict.recovered],
      [true, 5, { line: 7, error: 'corrupt session log: row 6 is not valid JSON' }],
    );
    const strict = read(logBytes(physicalHeader(0), rows), 1, { recovery: 'strict' }).verdict;
    assert.deepEqual([strict.stage, strict.dshError, strict.line], ['jsonl', 'corrupt session log: row 6 is not valid JSON', 7]);
  });

  it('finds a turn/end spelled with escapes after the damage', () => {
    const rows: unknown[] = plainTurn();
    rows[2] = '{oops';
    rows[5] = JSON.stringify(rows[5]).replace('turn/end', 'turn\\/end');
    assert.equal(read(logBytes(physicalHeader(0), rows)).verdict.stage, 'jsonl');
    rows[5] = JSON.stringify(JSON.parse(rows[5] as string)).replace('turn/end', '\\u0074urn/end');
    assert.equal(read(logBytes(physicalHeader(0), rows)).verdict.stage, 'jsonl');
  });

  it('after damage, parses only the lines that could be a turn/end', () => {
    const rows: unknown[] = [...plainTurn().slice(0, 2), 'damage'];
    for (let seq = 3; seq < 20_003; seq++)
      rows.push({ type: 'session/title', seq, time: 1, data: { title: 't', messageSeqs: [], source: { kind: 'fallback' } } });
    const bytes = logBytes(physicalHeader(0), rows);
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
      parsed++;
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      assert.equal(read(bytes, 1, { encode: false }).verdict.events, 2);
    } finally {
      JSON.parse = parse;
    }
    assert.ok(parsed < 10, `${parsed} lines parsed`);
  });
});

describe('format physical reader: zstd', () => {
  const lines = [JSON.stringify(physicalHeader(0)), ...plainTurn().map((row) => JSON.stringify(row))];

  it('reads a dsh-style log (header frame, batch frames) as its plain text', () => {
    const plain = read(enc.encode(lines.map((l) => l + '\n').join(''))).verdict;
    const result = read(encodeDshZstdLog(lines, { linesPerFrame: 2 }));
    assert.equal(result.compressed, true);
    assert.deepEqual([result.verdict.ok, result.verdict.sha256], [true, plain.sha256]);
  });

  it('refuses a first frame holding more than the header line', () => {
    const file = concatBytes([
      encodeRawZstdFrame(enc.encode(`${lines[0]}\n${lines[1]}\n`)),
      encodeRawZstdFrame(enc.encode(`${lines[2]}\n`)),
    ]);
    const verdict = read(file).verdict;
    assert.deepEqual(
      [verdict.stage, verdict.errorName, verdict.dshError],
      ['bytes', 'Error', 'corrupt Zstandard session log: first frame is not exactly one header line'],
    );
  });

  it('accepts a record continued into the next frame (dsh carries the fragment across frames)', () => {
    const body = lines.slice(1).join('\n') + '\n';
    const cut = body.length - 10;
    const file = concatBytes([
      encodeRawZstdFrame(enc.encode(`${lines[0]}\n`)),
      encodeRawZstdFrame(enc.encode(body.slice(0, cut))),
      encodeRawZstdFrame(enc.encode(body.slice(cut))),
    ]);
    assert.deepEqual([read(file).verdict.ok, read(file).verdict.events], [true, 6]);
  });

  it('refuses complete frames that end inside a record', () => {
    const body = lines.slice(1).join('\n') + '\n';
    const file = concatBytes([encodeRawZstdFrame(enc.encode(`${lines[0]}\n`)), encodeRawZstdFrame(enc.encode(body.slice(0, -10)))]);
    assert.equal(read(file).verdict.dshError, 'corrupt Zstandard session log: complete frame contains a torn JSONL record');
  });

  it('keeps the complete records of a torn final frame; a strict read refuses the torn frame', () => {
    const last = encodeRawZstdFrame(enc.encode(lines.slice(4).join('\n') + '\n'), { blockSize: lines[4].length + 1 });
    const file = concatBytes([encodeDshZstdLog(lines.slice(0, 4)), last.subarray(0, last.length - 8)]);
    const verdict = read(file).verdict;
    assert.deepEqual([verdict.ok, verdict.events], [true, 4]);
    const strict = read(file, 1, { recovery: 'strict' }).verdict;
    assert.deepEqual([strict.stage, strict.dshError], ['bytes', 'current session generation has a torn physical tail']);
  });
});
