// The host's one channel to a webview: nothing goes out before the webview says `ready`; then the state
// snapshot goes first, and the events that waited (a reveal) after it, in order. State notifications
// sent before `ready` are dropped (the snapshot carries the state as it is then); load progress is
// coalesced to the latest per tick; a webview that says `ready` again gets the snapshot again.
import { strict as assert } from 'node:assert';
import { WebviewChannel } from '../../../src/host/webview-channel';
import { notification, type HostToWebview } from '../../../src/protocol';

function channel() {
  const posted: HostToWebview[] = [];
  let snapshots = 0;
  const c = new WebviewChannel({ postMessage: (m) => void posted.push(m) }, () => {
    snapshots++;
    return [
      notification('strings', { language: 'en', strings: {} }),
      notification('loadFailed', { fileName: 'a', message: `state ${snapshots}` }),
    ];
  });
  const names = () => posted.map((m) => (m.type === 'notification' ? m.method : `response ${m.id}`));
  return { c, posted, names };
}

const reveal = (seq: number) => notification('reveal', { seq, reason: 'goToSeq' });
const loading = (fraction: number) => notification('loading', { fileName: 'a', totalBytes: 10, phase: 'reading', fraction });

describe('host: webview channel', () => {
  it('holds events until ready and sends them after the state; state sent before ready is dropped', () => {
    const { c, names, posted } = channel();
    c.notify(reveal(3));
    c.notify(notification('summary', { summary: {} as never }));
    c.notify(reveal(5));
    assert.equal(posted.length, 0);
    c.onReady();
    assert.deepEqual(names(), ['strings', 'loadFailed', 'reveal', 'reveal']);
    assert.deepEqual(
      posted.slice(2).map((m) => m.type === 'notification' && m.method === 'reveal' && m.params.seq),
      [3, 5],
    );
    c.notify(reveal(8));
    assert.deepEqual(names().slice(4), ['reveal'], 'once ready, a notification goes at once');
  });

  it('a webview that starts again gets the state again (and no event twice)', () => {
    const { c, names } = channel();
    c.notify(reveal(1));
    c.onReady();
    c.onReady();
    assert.deepEqual(names(), ['strings', 'loadFailed', 'reveal', 'strings', 'loadFailed']);
  });

  it('coalesces load progress to the latest of a tick; anything else cancels what is pending', async () => {
    const { c, posted, names } = channel();
    c.onReady();
    posted.length = 0;
    c.notify(loading(0.1));
    c.notify(loading(0.2));
    c.notify(loading(0.3));
    assert.equal(posted.length, 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(
      posted.map((m) => m.type === 'notification' && m.method === 'loading' && m.params.fraction),
      [0.3],
    );
    c.notify(loading(0.5));
    c.notify(notification('loadFailed', { fileName: 'a', message: 'gone' }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(names(), ['loading', 'loadFailed'], 'progress from before a failure is not sent after it');
  });

  it('answers go out as they are', () => {
    const { c, names } = channel();
    c.onReady();
    c.respond({ type: 'response', id: 7, method: 'lineage', ok: false, error: { code: 'notLoaded', message: 'no' } });
    assert.deepEqual(names().slice(2), ['response 7']);
  });
});
