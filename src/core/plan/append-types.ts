// Typed shapes for events we append. Surface types must say how they join the surface: the compiler
// refuses a user/message, assistant/message or tool/result without `surfaceOp`, and refuses
// surface metadata on every other type. `planAppend` repeats the check at run time for widened types.
import type { SurfaceOp } from '../types';
import type { KnownEventType } from '../read/known-types';

export type SurfaceEventType = 'user/message' | 'assistant/message' | 'tool/result';

interface EnvelopeBase {
  seq: number;
  time: number;
  data: unknown;
  ignorable?: true;
}

export interface NewSurfaceEvent extends EnvelopeBase {
  type: SurfaceEventType;
  surfaceOp: SurfaceOp;
  sourceEventSeqs?: number[];
}

/** The known v0 event types that never join the surface. */
export type PlainEventType = Exclude<KnownEventType, SurfaceEventType>;

export interface NewPlainEvent extends EnvelopeBase {
  type: PlainEventType;
  surfaceOp?: never;
  sourceEventSeqs?: never;
}

/** An event to append: the compiler enforces the surface-metadata rule for literal types. */
export type NewEvent = NewSurfaceEvent | NewPlainEvent;

/**
 * An event whose type is only known at run time (read from a file, built from user input): accepted by
 * `planAppend`/`append`, which check the same rules at run time.
 */
export interface WidenedEvent extends EnvelopeBase {
  type: string;
  surfaceOp?: unknown;
  sourceEventSeqs?: unknown;
}
