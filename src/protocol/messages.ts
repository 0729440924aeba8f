// The one message protocol between the extension host and the session webview: what crosses the
// boundary each way. Both sides import it (through ./index.ts): the host (Node) and the webview bundle
// (DOM). It holds only plain, JSON-serialisable data types, their validators and the typed dispatch of
// ./handlers.ts — no vscode, no DOM, and from the core only its pure data types — so the webview never
// depends on how the host reads logs. Messages carry data, never HTML.
//
// Three kinds of traffic: requests from the webview, each answered once by a `response` (requests.ts
// lists every method with its params and result); notifications the host sends on its own
// (notifications.ts); and two small messages of the webview's own, below: `ready` when its script
// has started, and — in test builds only — `rendered` when it has drawn a summary.
import { isNotificationMessage, type NotificationMessage } from './notifications';
import { isRequestMessage, isResponseEnvelope, type RequestMessage, type ResponseEnvelope, type ResponseMessage } from './requests';
import { bool, count, isObject } from './validate';

/** Bump when a message changes shape; the webview says which version it speaks in `ready`. */
export const PROTOCOL_VERSION = 3;

/** The webview's script started: the host sends the state it needs, then what waited for it. */
export interface ReadyMessage {
  type: 'ready';
  protocolVersion: number;
}

/** Test builds only: the webview drew a summary (lets the in-host tests time "open → header shown"). */
export interface RenderedMessage {
  type: 'rendered';
  events: number;
  hasHeader: boolean;
}

export type WebviewToHost = ReadyMessage | RenderedMessage | RequestMessage;

/** What the host sends: answers to requests, and notifications. */
export type HostToWebview = ResponseMessage | NotificationMessage;

/** What the webview accepts from the host before looking closer: a response's result is checked by the request it answers. */
export type HostMessage = ResponseEnvelope | NotificationMessage;

/**
 * Messages from a webview are untrusted input: their shape is checked before the host acts on them.
 * (A request with bad params is refused here too; the host still answers it with `badRequest`.)
 */
export function isWebviewToHost(v: unknown): v is WebviewToHost {
  if (!isObject(v)) return false;
  switch (v.type) {
    case 'ready':
      return typeof v.protocolVersion === 'number';
    case 'rendered':
      return count(v.events) && bool(v.hasHeader);
    case 'request':
      return isRequestMessage(v);
    default:
      return false;
  }
}

/** Messages from the host, checked by the webview before it draws anything from them. */
export function isHostMessage(v: unknown): v is HostMessage {
  return isNotificationMessage(v) || isResponseEnvelope(v);
}
