// The view state VS Code keeps across hiding the tab: read back field by field (a state of another
// build or a damaged one falls back to the defaults), and saved once a burst of changes settles.
import { strict as assert } from 'node:assert';
import {
  orderByKey,
  orderLabel,
  restoreViewState,
  ViewState,
  type TimelineViewState,
} from '../../../webview/timeline/controllers/view-state';

describe('webview: view state', () => {
  it('restores what it can and defaults the rest', () => {
    assert.deepEqual(restoreViewState(undefined), {
      order: 'log',
      selectedSeq: undefined,
      topSeq: undefined,
      filter: [],
      inspectorOpen: true,
      following: true,
    });
    assert.deepEqual(
      restoreViewState({ order: 'surface', selectedSeq: 12, topSeq: -3, filter: ['tool/call', 7], inspectorOpen: false, following: false }),
      { order: 'surface', selectedSeq: 12, topSeq: undefined, filter: ['tool/call'], inspectorOpen: false, following: false },
    );
    assert.equal(restoreViewState({ order: 'sideways' }).order, 'log');
    assert.equal(restoreViewState('nonsense').order, 'log');
    assert.equal(restoreViewState({ selectedSeq: 1.5 }).selectedSeq, undefined);
  });

  it('saves once after a burst of changes, a copy of the state', async () => {
    const saved: TimelineViewState[] = [];
    const view = new ViewState({ get: () => ({ order: 'transcript' }), set: (s) => saved.push(s) }, 5);
    assert.equal(view.order, 'transcript');
    for (let seq = 0; seq < 20; seq++) {
      view.topSeq = seq;
      view.save();
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(saved.length, 1);
    assert.equal(saved[0].topSeq, 19);
    view.filter.push('x');
    assert.deepEqual(saved[0].filter, [], 'the saved state does not change with the live one');
  });

  it('names each order', () => {
    assert.equal(orderLabel('surface'), 'Model view');
    assert.equal(orderLabel('log'), 'Full log');
    assert.equal(orderLabel('transcript'), 'Transcript');
  });

  it('moves through the orders as one radio group: arrows wrap, Home and End go to the ends, other keys do nothing', () => {
    assert.equal(orderByKey('surface', 'ArrowRight'), 'log');
    assert.equal(orderByKey('log', 'ArrowDown'), 'transcript');
    assert.equal(orderByKey('transcript', 'ArrowRight'), 'surface');
    assert.equal(orderByKey('surface', 'ArrowLeft'), 'transcript');
    assert.equal(orderByKey('log', 'ArrowUp'), 'surface');
    assert.equal(orderByKey('transcript', 'Home'), 'surface');
    assert.equal(orderByKey('surface', 'End'), 'transcript');
    assert.equal(orderByKey('log', 'Tab'), undefined);
    assert.equal(orderByKey('log', 'Enter'), undefined);
  });
});
