// The one error of the protocol: a request that could not be answered, with a code the other side can
// act on. The host throws it from a request handler (the code travels in the response); the webview's
// client rejects a request with it (the host's code, or `timeout` when no answer came).
import { literal, type Validator } from './validate';

export type ErrorCode =
  | 'badRequest' // params did not validate
  | 'notLoaded' // the log failed to load (or was closed)
  | 'outOfRange' // a seq or index beyond the log
  | 'unknownSearch' // a searchId the host no longer has
  | 'cancelled' // a newer request made this one moot
  | 'badResponse' // the host's answer did not have the shape of the method's result
  | 'timeout' // the host did not answer in time
  | 'failed'; // anything else; `message` says what

export const isErrorCode: Validator<ErrorCode> = literal(
  'badRequest',
  'notLoaded',
  'outOfRange',
  'unknownSearch',
  'cancelled',
  'badResponse',
  'timeout',
  'failed',
);

export class RequestError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}
