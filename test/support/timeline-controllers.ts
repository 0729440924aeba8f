// The webview's controllers under Node, over the real thing: a log loaded by the core, the host's own
// request handler (the same one the session panel runs), and the webview's own HostClient between
// them, every message crossing as JSON as it does between the extension host and a webview; composed
// by the page's own TimelineControllers. Only the page is played: a TestHost stands for the element (it
// counts redraws and keeps what was said), and the drawn list, the keys and the focus are recorded.
import { loadSessionFile } from '../../src/core';
import { handleRequest } from '../../src/host/timeline/request-handlers';
import { SessionTimeline, type TimelineHost as LogHost } from '../../src/host/timeline/session-timeline';
import { Formatter } from '../../src/present';
import { notification } from '../../src/protocol';
import { HostClient, type Requester } from '../../webview/host-client';
import type { KeyPress } from '../../webview/timeline/controllers/keyboard-controller';
import type { ListSurface, ScrollBlock } from '../../webview/timeline/controllers/list-controller';
import { TimelineControllers } from '../../webview/timeline/controllers/timeline-controllers';
import type { TimelineHost } from '../../webview/timeline/controllers/timeline-host';
import type { TimelineViewState } from '../../webview/timeline/controllers/view-state';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });

/** The extension host's side for one log: the timeline over a core load, with the editor's parts recorded. */
export function timelineOver(bytes: Uint8Array, host: Partial<LogHost> = {}): SessionTimeline {
  const timeline: SessionTimeline = new SessionTimeline(loadSessionFile(bytes), 1, fmt, {
    summaryContext: () => ({
      fileName: 's.jsonl',
      filePath: '/tmp/s.jsonl',
      turns: timeline.index.turns,
      file: { state: 'following', size: bytes.length, mtimeMs: 0 },
      followLiveLogs: true,
      fileBytes: bytes.length,
      restrictedMode: false,
      loadMs: 1,
    }),
    reveal: async () => true,
    reload: () => {},
    ...host,
  });
  return timeline;
}

/** The element's part, played: Lit's controller host plus what TimelineHost adds. */
export class TestHost implements TimelineHost {
  readonly controllers: { hostConnected?(): void; hostDisconnected?(): void; hostUpdated?(): void }[] = [];
  readonly said: string[] = [];
  updates = 0;
  readonly updateComplete = Promise.resolve(true);

  constructor(readonly request: Requester) {}

  addController(controller: TestHost['controllers'][number]): void {
    this.controllers.push(controller);
  }
  removeController(controller: TestHost['controllers'][number]): void {
    this.controllers.splice(this.controllers.indexOf(controller), 1);
  }
  requestUpdate(): void {
    this.updates++;
    for (const c of this.controllers) c.hostUpdated?.();
  }
  say(text: string): void {
    this.said.push(text);
  }
  nextFrame(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
  connect(): void {
    for (const c of this.controllers) c.hostConnected?.();
  }
  disconnect(): void {
    for (const c of this.controllers) c.hostDisconnected?.();
  }
}

/** The drawn list, recorded. */
export class RecordedSurface implements ListSurface {
  readonly scrolls: { index: number; block: ScrollBlock }[] = [];
  count = 0;
  redraws = 0;
  readonly drawn = true;
  scrollToIndex(index: number, block: ScrollBlock): void {
    this.scrolls.push({ index, block });
  }
  setCount(total: number): void {
    this.count = total;
  }
  redrawSoon(): void {
    this.redraws++;
  }
  forgetSizes(): void {}
  settled(): Promise<unknown> {
    return Promise.resolve();
  }
}

/** Everything the page would otherwise do, recorded. */
export interface PageCalls {
  focus: string[];
  redrawnCanvas: number;
  busy: boolean[];
  summaries: { first: boolean; events: number }[];
  firstRowsShown: number;
}

/** A key as the keymap reads it, plain unless said otherwise. */
export function key(k: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress {
  return { key: k, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, typing: false, inInspector: false, ...mods };
}

const composed: TestHost[] = [];

/** Disconnects every composition made (their timers stop), as the page does when the view closes. */
export function releaseTimelines(): void {
  for (const host of composed.splice(0)) host.disconnect();
}

/**
 * The controllers composed as the page composes them (TimelineControllers), over `timeline`, and
 * loaded as the page is when the host's summary arrives. `saved` is the view state VS Code kept (none:
 * a first open). Call releaseTimelines() after each test.
 */
export async function composeTimeline(timeline: SessionTimeline, saved?: Partial<TimelineViewState>) {
  const page: PageCalls = { focus: [], redrawnCanvas: 0, busy: [], summaries: [], firstRowsShown: 0 };
  const client = new HostClient({
    postMessage: (message) => {
      void handleRequest(timeline, JSON.parse(JSON.stringify(message)), (p) =>
        client.receive(JSON.parse(JSON.stringify(notification('searchProgress', p)))),
      ).then((response) => {
        if (response) client.receive(JSON.parse(JSON.stringify(response)));
      });
    },
  });
  const host = new TestHost(client.request);
  composed.push(host);
  const stored: { state?: unknown } = { state: saved };
  const surface = new RecordedSurface();
  const keys: { onKey?: (k: KeyPress) => boolean } = {};
  const c = new TimelineControllers(
    host,
    { get: () => stored.state, set: (state) => (stored.state = state) },
    {
      surface,
      keys: {
        listen: (onKey) => {
          keys.onKey = onKey;
          return () => (keys.onKey = undefined);
        },
      },
      focusList: () => page.focus.push('list'),
      focusSearch: () => page.focus.push('search'),
      openInspector: () => page.focus.push('inspector'),
      focusFirstGhost: () => false,
      focusAsOfInput: () => page.focus.push('asof-seq'),
      focusTimeCanvas: () => page.focus.push('time-canvas'),
      redrawTimeCanvas: () => page.redrawnCanvas++,
      focusBelowList: (selector) => page.focus.push(selector),
      setBusy: (busy) => page.busy.push(busy),
      setLanguage: () => {},
      progressShown: () => {},
      summaryArrived: (summary, first) => page.summaries.push({ first, events: summary.counts.events }),
      firstRowsShown: () => page.firstRowsShown++,
    },
  );
  host.connect();
  client.listen(c.notifications);
  client.receive(JSON.parse(JSON.stringify(notification('summary', { summary: timeline.summary() }))));
  await settle(() => c.list.rowsArrived && c.list.total > 0, 'the first rows arrive');
  // The list reports what it shows, as the drawn list does once it has rows.
  c.list.onRange({ first: 0, last: 30, visibleFirst: 0, visibleLast: 25, offset: 0 });
  await idle();
  return { ...c, controllers: c, timeline, client, host, stored, surface, page, keys };
}

/** Lets the round trips in flight finish (each answer is a few microtasks and an immediate away). */
export async function idle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits until `done()` holds (five seconds at most), or fails naming `what`. */
export async function settle(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
