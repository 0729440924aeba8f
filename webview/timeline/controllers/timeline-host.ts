// The small interface the timeline's controllers are written against: Lit's controller host (request a
// redraw, wait for one, add a controller) plus the three things every controller may need — ask the
// host, tell a screen reader, wait for a frame. The element that composes them (TimelineApp) provides
// it in the page; the unit tests provide it under Node, over the real request handler. Controllers
// never reach into the element, and never touch the DOM: what needs the page comes in as callbacks.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Requester } from '../../host-client';

export interface TimelineHost extends ReactiveControllerHost {
  readonly request: Requester;
  /** Says a status change once, politely, to screen readers. */
  say(text: string): void;
  /** Resolves at the next animation frame, or after a while when there is none (a hidden webview draws none). */
  nextFrame(): Promise<void>;
}

/**
 * The base of the timeline's controllers: each registers itself with its host as it is made, and Lit
 * calls the lifecycle hooks (connected, disconnected, updated) of those that override them — the ones
 * with timers or listeners to start and stop, or a canvas to draw after an update.
 */
export abstract class TimelineController implements ReactiveController {
  constructor(protected readonly host: TimelineHost) {
    host.addController(this);
  }

  hostConnected(): void {}
}
