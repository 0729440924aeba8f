// The row cache: rows pulled a page at a time, each page remembering the generation it was fetched at;
// stale pages stay drawn but are fetched again when asked for; a closed cache drops late answers; at
// most 50 pages are kept, the least recently fetched going first.
import { strict as assert } from 'node:assert';
import { PAGE_SIZE, RowCache } from '../../../webview/timeline/controllers/row-cache';

interface Fetch {
  start: number;
  count: number;
}

/** A host with `total` rows named after their index, at the generation `generation.now`. */
function source(total: number) {
  const generation = { now: 'g1' };
  const fetches: Fetch[] = [];
  const arrived: { total: number; first: number; last: number }[] = [];
  const cache = new RowCache<string>(
    async (start, count) => {
      fetches.push({ start, count });
      await Promise.resolve();
      const rows = [];
      for (let i = start; i < Math.min(total, start + count); i++) rows.push(`row ${i} @${generation.now}`);
      return { rows, total, generation: generation.now };
    },
    (t, first, last) => arrived.push({ total: t, first, last }),
  );
  return { cache, fetches, arrived, generation };
}

describe('webview: row cache', () => {
  it('fetches the pages a range covers once, and tells what arrived', async () => {
    const { cache, fetches, arrived } = source(1000);
    await cache.ready(150, 250);
    assert.deepEqual(fetches, [
      { start: 100, count: PAGE_SIZE },
      { start: 200, count: PAGE_SIZE },
    ]);
    assert.equal(cache.get(150), 'row 150 @g1');
    assert.equal(cache.get(99), undefined, 'a page not asked for is not there');
    assert.deepEqual(arrived, [
      { total: 1000, first: 100, last: 199 },
      { total: 1000, first: 200, last: 299 },
    ]);
    cache.ensure(120, 180);
    await Promise.resolve();
    assert.equal(fetches.length, 2, 'a page held at the current generation is not fetched again');
  });

  it('one fetch per page in flight, however often it is asked for', async () => {
    const { cache, fetches } = source(1000);
    cache.ensure(0, 10);
    cache.ensure(5, 20);
    await cache.ready(0, 99);
    assert.equal(fetches.length, 1);
  });

  it('a stale page stays drawn and is fetched again when next asked for', async () => {
    const { cache, fetches, generation } = source(1000);
    await cache.ready(0, 10);
    generation.now = 'g2';
    cache.stale('g2');
    assert.equal(cache.get(3), 'row 3 @g1', 'still drawn: the list does not flash');
    await cache.ready(0, 10);
    assert.equal(fetches.length, 2);
    assert.equal(cache.get(3), 'row 3 @g2');
  });

  it('a closed cache drops answers that come late and fetches nothing more', async () => {
    const { cache, fetches, arrived } = source(1000);
    const late = cache.ready(0, 10);
    cache.close();
    await late;
    assert.equal(cache.get(0), undefined);
    assert.equal(arrived.length, 0);
    await cache.ready(200, 210);
    assert.equal(fetches.length, 1);
  });

  it('keeps 50 pages at most, dropping the one fetched longest ago', async () => {
    const { cache } = source(100_000);
    for (let page = 0; page <= 50; page++) await cache.ready(page * PAGE_SIZE, page * PAGE_SIZE);
    assert.equal(cache.get(0), undefined, 'the first page went');
    assert.equal(cache.get(PAGE_SIZE), `row ${PAGE_SIZE} @g1`);
    assert.equal(cache.get(50 * PAGE_SIZE), `row ${50 * PAGE_SIZE} @g1`);
  });

  it('a failed fetch leaves the page to be asked for again', async () => {
    let fail = true;
    const cache = new RowCache<number>(
      async (start) => {
        if (fail) throw new Error('host gone');
        return { rows: [start], total: 1, generation: 'g' };
      },
      () => {},
    );
    await cache.ready(0, 0);
    assert.equal(cache.get(0), undefined);
    fail = false;
    await cache.ready(0, 0);
    assert.equal(cache.get(0), 0);
  });
});
