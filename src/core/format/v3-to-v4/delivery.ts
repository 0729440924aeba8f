// Delivery markers and generations (spec §5 "v3 → v4", delivery guard): a
// `session-log-deepseek/delivery-accepted` marker records how far an uploader got in one generation.
// Only a marker of the generation being read is interpreted; others keep their payload untouched.
import type { FormatEvent } from '../types';
import { SessionFormatError } from '../errors';
import { isJsonObject, formatCount } from '../json';

export const DELIVERY_ACCEPTED = 'session-log-deepseek/delivery-accepted';

/**
 * For a delivery marker of generation `current`: checks its coordinates and returns the session id it
 * names. For any other event, or a marker of another generation, returns undefined. A marker without a
 * generation is a v0 one.
 */
export function activeDeliverySession(event: FormatEvent, current: number): string | undefined {
  if (event.type !== DELIVERY_ACCEPTED) return undefined;
  const data = event.data;
  if (!isJsonObject(data)) throw new SessionFormatError('delivery-accepted data must be an object');
  const version = formatCount(data.sessionFormatVersion === undefined ? 0 : data.sessionFormatVersion, 'delivery sessionFormatVersion');
  if (version !== current) return undefined;
  const throughSeq = formatCount(data.throughSeq, 'delivery throughSeq');
  if (throughSeq >= event.seq) throw new SessionFormatError('delivery throughSeq must precede its marker');
  const id = data.sessionId;
  if (typeof id !== 'string' || id.length === 0) throw new SessionFormatError('delivery requires a nonempty Session id');
  return id;
}

export const WRONG_SESSION_DELIVERY = 'current-generation delivery marker names the wrong Session';
