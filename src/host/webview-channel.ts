// The one way the host tells a session webview anything: a channel per webview panel. Every
// notification goes through `notify`, every answer through `respond`. Until the webview's script says
// `ready`, nothing can be delivered, so notifications wait here: an event (a reveal) in a queue, sent
// in order after `ready`; a piece of state (progress, the summary, an append, the pending edits) not at
// all, since `ready` is answered with a snapshot of the state as it is then, which is newer. A webview
// that VS Code reloads (a hidden tab shown again) says `ready` again and gets the snapshot again.
import { type HostToWebview, type NotificationMessage, type NotificationMethod, type ResponseMessage } from '../protocol';

/** What the `ready` snapshot carries anew (state) and what must reach the webview itself (events). */
const KIND: Record<NotificationMethod, 'state' | 'event'> = {
  strings: 'state',
  loading: 'state',
  summary: 'state',
  appended: 'state',
  loadFailed: 'state',
  pendingEdits: 'state',
  searchProgress: 'event',
  reveal: 'event',
};

/** Events kept at most while the webview is not ready (the oldest go first). */
const MAX_WAITING = 100;

/** The webview's end: VS Code's `Webview`, or anything that posts messages as it does. */
export interface MessagePoster {
  postMessage(message: HostToWebview): PromiseLike<boolean> | void;
}

export class WebviewChannel {
  private ready = false;
  private readonly waiting: NotificationMessage[] = [];
  /** Load progress is coalesced to one message per tick; other notifications go out in order. */
  private latestLoading: NotificationMessage | undefined;

  /** @param snapshot the state a (re)started webview needs, as notifications, in the order to send them. */
  constructor(
    private readonly webview: MessagePoster,
    private readonly snapshot: () => NotificationMessage[],
  ) {}

  get isReady(): boolean {
    return this.ready;
  }

  /** The webview's script (re)started: the current state, then the events that waited for it. */
  onReady(): void {
    this.ready = true;
    this.latestLoading = undefined;
    for (const message of this.snapshot()) this.post(message);
    for (const message of this.waiting.splice(0)) this.post(message);
  }

  notify(message: NotificationMessage): void {
    if (!this.ready) {
      if (KIND[message.method] === 'state') return;
      this.waiting.push(message);
      if (this.waiting.length > MAX_WAITING) this.waiting.shift();
      return;
    }
    if (message.method !== 'loading') {
      this.latestLoading = undefined;
      this.post(message);
      return;
    }
    const first = this.latestLoading === undefined;
    this.latestLoading = message;
    if (first) {
      setTimeout(() => {
        const latest = this.latestLoading;
        this.latestLoading = undefined;
        if (latest) this.post(latest);
      }, 0);
    }
  }

  /** An answer to a request (the webview is up: it asked). */
  respond(response: ResponseMessage): void {
    this.post(response);
  }

  private post(message: HostToWebview): void {
    void this.webview.postMessage(message);
  }
}
