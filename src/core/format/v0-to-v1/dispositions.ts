// The closed inventory of the 54 event types of released v0 (and v1): for each, the payload members
// it must and may carry, and those kept as opaque JSON. Later generations derive theirs from it.

/** The payload members of one event type: `required` and `optional`; `opaque` ones are kept as lossless JSON uninspected. */
export interface PayloadDisposition {
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly opaque: readonly string[];
}

export function payloadDisposition(
  required: readonly string[],
  optional: readonly string[] = [],
  opaque: readonly string[] = [],
): PayloadDisposition {
  return Object.freeze({
    required: Object.freeze([...required]),
    optional: Object.freeze([...optional]),
    opaque: Object.freeze([...opaque]),
  });
}

/** Released v0/v1 event types and their payload members. */
export const RELEASED_EVENT_DISPOSITIONS: Readonly<Record<string, PayloadDisposition>> = Object.freeze({});

/** The released v0/v1 event types, sorted. */
export const RELEASED_EVENT_TYPES: readonly string[] = Object.freeze(Object.keys(RELEASED_EVENT_DISPOSITIONS).sort());
