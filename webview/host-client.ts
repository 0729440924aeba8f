// The webview's end of the protocol. Requests go to the host with an id and are answered exactly once;
// each answer is checked against the result of the method that was asked (so nothing the host sends is
// drawn unchecked), and a request the host never answers times out instead of hanging a view.
// Notifications are checked and handed to the handler of their method. No DOM here: the page hands in
// the port to the host and feeds what arrives to `receive`.
import {
  dispatchNotification,
  isNotificationMessage,
  isResponseEnvelope,
  RequestError,
  RESULTS,
  type Generation,
  type Method,
  type NotificationHandlers,
  type Params,
  type ReadyMessage,
  type RenderedMessage,
  type RequestMessage,
  type ResponseEnvelope,
  type Result,
} from '../src/protocol';

export interface Answer<M extends Method> {
  result: Result<M>;
  /** What the host computed the result from (a window from before an append is stale). */
  generation: Generation;
}

/** Asks the host one thing. */
export type Requester = <M extends Method>(method: M, params: Params<M>) => Promise<Answer<M>>;

/** The way to the host: VS Code's `postMessage`, or a test's. */
export interface HostPort {
  postMessage<M extends Method>(message: RequestMessage<M> | ReadyMessage | RenderedMessage): void;
}

interface Waiting {
  settle(response: ResponseEnvelope): void;
  timer: ReturnType<typeof setTimeout>;
}

const TIMEOUT_MS = 120_000;

export class HostClient {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private handlers: NotificationHandlers | undefined;

  constructor(
    private readonly port: HostPort,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  /** Where notifications go; none is handled before this is called. */
  listen(handlers: NotificationHandlers): void {
    this.handlers = handlers;
  }

  /** The webview's own messages: `ready`, and a test build's `rendered`. */
  send(message: ReadyMessage | RenderedMessage): void {
    this.port.postMessage(message);
  }

  readonly request: Requester = <M extends Method>(method: M, params: Params<M>): Promise<Answer<M>> => {
    const id = this.nextId++;
    const isResult = RESULTS[method];
    return new Promise<Answer<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new RequestError('timeout', `The editor did not answer "${method}" in time.`));
      }, this.timeoutMs);
      this.waiting.set(id, {
        timer,
        settle: (response) => {
          if (!response.ok) return reject(new RequestError(response.error.code, response.error.message));
          const result: unknown = response.result;
          if (response.method === method && isResult(result)) resolve({ result, generation: response.generation });
          else reject(new RequestError('badResponse', `The editor's answer to "${method}" does not have the shape of its result.`));
        },
      });
      const message: RequestMessage<M> = { type: 'request', id, method, params };
      this.port.postMessage(message);
    });
  };

  /** One message from the host, as it arrived (anything that is not ours is ignored). */
  receive(data: unknown): void {
    if (isNotificationMessage(data)) {
      if (this.handlers) dispatchNotification(this.handlers, data);
      return;
    }
    if (!isResponseEnvelope(data)) return;
    const waiting = this.waiting.get(data.id);
    if (!waiting) return;
    this.waiting.delete(data.id);
    clearTimeout(waiting.timer);
    waiting.settle(data);
  }

  /** Requests still waiting for their answer. */
  get pending(): number {
    return this.waiting.size;
  }
}
