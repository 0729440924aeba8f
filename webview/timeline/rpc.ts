// Requests to the host, each with an id, answered exactly once. Answers are validated by the shared
// protocol before they are used; a request the host never answers times out instead of hanging a view.
import type { Method, Params, ResponseMessage, Result } from '../../src/protocol/requests';
import type { Generation } from '../../src/protocol/timeline';
import { send } from '../vscodeApi';

export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Answer<M extends Method> {
  result: Result<M>;
  generation: Generation;
}

interface Pending {
  resolve(answer: Answer<Method>): void;
  reject(error: RequestError): void;
  timer: ReturnType<typeof setTimeout>;
}

const TIMEOUT_MS = 120_000;

export class HostClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  request<M extends Method>(method: M, params: Params<M>): Promise<Answer<M>> {
    const id = this.nextId++;
    return new Promise<Answer<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError('timeout', `The editor did not answer "${method}" in time.`));
      }, TIMEOUT_MS);
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject, timer });
      send({ type: 'request', id, method, params } as never);
    });
  }

  /** Feeds one answer from the host, already checked by the shared protocol (`isHostToWebview`). */
  receive(message: ResponseMessage): void {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.ok) waiting.resolve({ result: message.result, generation: message.generation });
    else waiting.reject(new RequestError(message.error.code, message.error.message));
  }
}
