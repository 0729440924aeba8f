// Typed dispatch, the same on both sides: a handler map has one function per method of a table, and a
// message goes to the handler of its own method. The maps are checked by the compiler (a missing
// method, or a handler taking the wrong params, does not build), and dispatch needs no cast: the
// envelopes are written so that a function generic in the method sees a message's params and the
// handler of that method with the same type.
import { RequestError, type ErrorCode } from './errors';
import type { NotificationMessage, NotificationMethod, NotificationParams } from './notifications';
import {
  isMethod,
  type Method,
  type Params,
  type RequestMessage,
  type ResponseFailed,
  type ResponseMessage,
  type ResponseOk,
  type Result,
} from './requests';
import type { Generation } from './rows';
import { isObject } from './validate';

/** The host's side: one function per request method, returning (or resolving to) its result. */
export type RequestHandlers = { [M in Method]: (params: Params<M>) => Result<M> | Promise<Result<M>> };

/** The webview's side: one function per notification. */
export type NotificationHandlers = { [N in NotificationMethod]: (params: NotificationParams<N>) => void };

/**
 * Runs a (validated) request through its handler and wraps what it returns, or throws, in the response:
 * a RequestError keeps its code, anything else is `failed` with its message.
 */
export async function answerRequest<M extends Method>(
  handlers: RequestHandlers,
  request: RequestMessage<M>,
  generation: () => Generation,
): Promise<ResponseMessage<M>> {
  const { id, method } = request;
  try {
    const result = await handlers[method](request.params);
    const answer: ResponseOk<M> = { type: 'response', id, method, ok: true, generation: generation(), result };
    return answer;
  } catch (error) {
    const code = error instanceof RequestError ? error.code : 'failed';
    const message = error instanceof Error ? error.message : String(error);
    return { type: 'response', id, method, ok: false, error: { code, message } };
  }
}

/** Hands a (validated) notification to the handler of its method. */
export function dispatchNotification<N extends NotificationMethod>(handlers: NotificationHandlers, message: NotificationMessage<N>): void {
  handlers[message.method](message.params);
}

/**
 * The answer to a message that is not a valid request but says which request it meant (a numeric id
 * and a known method): a typed error, so the webview never waits for it. Anything else gets none.
 */
export function refuseRequest(message: unknown, code: ErrorCode, why: (method: Method) => string): ResponseFailed | undefined {
  if (!isObject(message) || typeof message.id !== 'number' || !isMethod(message.method)) return undefined;
  const method: Method = message.method;
  return { type: 'response', id: message.id, method, ok: false, error: { code, message: why(method) } };
}
