// Restores as the catalog runs them (see RestoreVisit in types.ts), and the bookkeeping a streaming
// restore needs to refuse exactly as a whole-artifact one does. dsh's restore runs its checks one
// after another over the whole artifact, each stopping at its first refusal, so the refusal it throws
// is the first one of the earliest check that has one. A streaming restore runs the same checks side
// by side as the events go past (`PassRefusals` keeps their order), so it needs no artifact.
import type { Artifact, ArtifactRestorer, FormatEvent, StreamingRestorer } from './types';

/** A restore written against a whole artifact, as a streaming one: it holds the events and restores them at the end. */
export function holdingArtifact(restorer: ArtifactRestorer): StreamingRestorer {
  return (header) => {
    const events: FormatEvent[] = [];
    return {
      event: (event) => {
        events.push(event);
      },
      finish: (inheritedEventCount) => {
        restorer({ header, inheritedEventCount, events });
      },
    };
  };
}

/** Runs a streaming restore over an artifact in memory, as the catalog runs it over a file; returns the artifact. */
export function restoreWhole(restore: StreamingRestorer, artifact: Artifact): Artifact {
  const visit = restore(artifact.header, false);
  for (const event of artifact.events) visit.event(event);
  visit.finish(artifact.inheritedEventCount);
  return artifact;
}

/**
 * The refusals of checks ("passes", numbered in the order dsh runs them) run side by side. A pass
 * stops at its first refusal. Once a pass's refusal is certain, every later pass is moot (its
 * refusal could never be the one thrown) and stops too; earlier passes go on, since theirs would win.
 */
export class PassRefusals {
  private readonly refusals: ({ error: unknown } | undefined)[];
  /** The earliest pass whose refusal is certain. */
  private earliestCertain: number;

  constructor(passes: number) {
    this.refusals = new Array<{ error: unknown } | undefined>(passes).fill(undefined);
    this.earliestCertain = passes;
  }

  /** Whether `pass` can still be the one whose refusal is thrown. */
  matters(pass: number): boolean {
    return pass <= this.earliestCertain;
  }

  /** Whether `pass` still checks events: no refusal of its own yet, and none certain before it. */
  open(pass: number): boolean {
    return pass < this.earliestCertain;
  }

  /** Runs one step of `pass` while it is open; what it throws is the pass's refusal. */
  run(pass: number, step: () => void): void {
    if (!this.open(pass)) return;
    try {
      step();
    } catch (error) {
      this.refuse(pass, error);
    }
  }

  /** The pass's first refusal (a later one of the same pass is ignored); certain from now on. */
  refuse(pass: number, error: unknown): void {
    this.refusals[pass] ??= { error };
    if (pass < this.earliestCertain) this.earliestCertain = pass;
  }

  /**
   * A refusal the pass held back (it depended on events still to come) and that now stands: it arose
   * before anything the pass refused since, so it replaces that.
   */
  overrule(pass: number, error: unknown): void {
    this.refusals[pass] = { error };
    if (pass < this.earliestCertain) this.earliestCertain = pass;
  }

  /** Throws the refusal of `pass`, if it has one. */
  throwOf(pass: number): void {
    const refusal = this.refusals[pass];
    if (refusal) throw refusal.error;
  }
}
