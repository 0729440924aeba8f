// Back and forward through the places jumped from, as an editor's navigation history: a visit pushes
// where it left and drops what was ahead; back and forward trade places with the current one.
import { strict as assert } from 'node:assert';
import { NavHistory } from '../../../webview/timeline/controllers/nav-history';

describe('webview: navigation history', () => {
  it('goes back and forward between visited places', () => {
    const h = new NavHistory<number>();
    assert.equal(h.canGoBack, false);
    h.visit(3); // at 3, jumped to 7
    h.visit(7); // at 7, jumped to 12
    assert.equal(h.goBack(12), 7);
    assert.equal(h.goBack(7), 3);
    assert.equal(h.goBack(3), undefined);
    assert.equal(h.canGoForward, true);
    assert.equal(h.goForward(3), 7);
    assert.equal(h.goForward(7), 12);
    assert.equal(h.canGoForward, false);
  });

  it('a new visit after going back drops the places ahead', () => {
    const h = new NavHistory<number>();
    h.visit(1);
    h.visit(2);
    assert.equal(h.goBack(3), 2);
    h.visit(2); // from 2, jumped somewhere new
    assert.equal(h.canGoForward, false);
    assert.equal(h.goBack(9), 2);
    assert.equal(h.goBack(2), 1);
  });

  it('nothing is recorded for no place, and the oldest places beyond the limit go', () => {
    const h = new NavHistory<number>(3);
    h.visit(undefined);
    assert.equal(h.canGoBack, false);
    for (const seq of [1, 2, 3, 4]) h.visit(seq);
    assert.equal(h.goBack(5), 4);
    assert.equal(h.goBack(4), 3);
    assert.equal(h.goBack(3), 2);
    assert.equal(h.goBack(2), undefined, 'the first went past the limit');
  });
});
