// Typed shapes for events we append. Surface types must say how they join the surface: the compiler
// refuses a user/message, assistant/message or tool/result without `surfaceOp`, and refuses
// surface metadata on every other type. `planAppend` repeats the check at run time for widened types.
import type { SurfaceOp } from './types';

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

export interface NewPlainEvent<T extends string = string> extends EnvelopeBase {
  type: T extends SurfaceEventType ? never : T;
  surfaceOp?: never;
  sourceEventSeqs?: never;
}

/** An event to append: the compiler enforces the surface-metadata rule for literal types. */
export type NewEvent = NewSurfaceEvent | NewPlainEvent;
