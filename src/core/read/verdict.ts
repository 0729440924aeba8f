// The verdict of a log: the refusals each of dsh's stages found (header, parse, adopt, known-types,
// closers, seed), the first of which is dsh's answer; the strict constructor's verdict (which also
// refuses lossy JSON numbers); and the diagnostics found along the way.
import type { Diagnostic, ErrorName, RelatedPlace, Stage, Verdict } from '../types';
import { RetiredShapeWatch } from './legacy';
import { isLosslessJson, isLosslessParsed, isLosslessRow } from './lossless';
import type { EventIndex } from './event-index';
import { say, type Said } from '../words';

/** One refusal found at a given stage, in dsh's words plus where it was found. */
export interface Refusal {
  dshError: string;
  errorName: ErrorName;
  rule: string;
  line?: number;
  seq?: number;
  related?: RelatedPlace[];
}

export interface StrictSeedVerdict {
  ok: boolean;
  error?: string;
  errorName?: ErrorName;
}

const STAGE_ORDER: Stage[] = ['header', 'parse', 'adopt', 'known-types', 'closers', 'seed'];

/** Diagnostics kept per log: a badly damaged log must not drown the Problems panel. */
const MAX_DIAGNOSTICS = 5000;

/** What the verdict needs from the rest of the log when it is asked for. */
export interface VerdictInputs {
  headerRead: boolean;
  sessionId: string;
  headerSeedError: string | undefined;
  /** The refusal the closers meet when the seed replays them (computed on demand). */
  closerRefusal(): Refusal | null;
  /** Where dsh's repair throws while making the closers (computed on demand). */
  closerCrash(): Refusal | null;
}

export class VerdictKeeper {
  private readonly refusals = new Map<Stage, Refusal>();
  readonly retired: RetiredShapeWatch;
  /** The first event the seed refused (the strict constructor meets it too, after any lossy event before it). */
  private firstSeedEventProblem: Refusal | undefined;
  readonly diagnostics: Diagnostic[] = [];
  /** Lines whose text may hold -0 or an overflowing number: [first seq, end seq) pairs, checked on demand. */
  private readonly lossyCandidates: number[] = [];
  private readonly lossy = { checked: 0, first: undefined as Refusal | undefined, warnings: [] as Diagnostic[] };

  /** `from`: the keeper of the log this one's is a fork of; it starts with the same findings. */
  constructor(from?: VerdictKeeper) {
    this.retired = from ? from.retired.clone() : new RetiredShapeWatch();
    if (!from) return;
    for (const [stage, refusal] of from.refusals) this.refusals.set(stage, refusal);
    this.headerless = from.headerless;
    this.firstSeedEventProblem = from.firstSeedEventProblem;
    for (const d of from.diagnostics) this.diagnostics.push(d);
    for (const seq of from.lossyCandidates) this.lossyCandidates.push(seq);
    this.lossy.checked = from.lossy.checked;
    this.lossy.first = from.lossy.first;
    for (const w of from.lossy.warnings) this.lossy.warnings.push(w);
  }

  refuse(stage: Stage, refusal: Refusal): void {
    if (!this.refusals.has(stage)) this.refusals.set(stage, refusal);
  }

  /** The header-less refusal in the container's words (a zstd header frame still being written). */
  headerless: Refusal | undefined;

  has(stage: Stage): boolean {
    return this.refusals.has(stage);
  }

  report(d: Diagnostic): void {
    if (this.diagnostics.length < MAX_DIAGNOSTICS) this.diagnostics.push(d);
  }

  /** A refusal that is also listed as an error diagnostic. */
  problem(stage: Stage, refusal: Refusal): void {
    this.refuse(stage, refusal);
    this.report({
      severity: 'error',
      rule: refusal.rule,
      message: refusal.dshError,
      line: refusal.line,
      seq: refusal.seq,
      ...(refusal.related ? { related: refusal.related } : {}),
    });
  }

  seedProblem(refusal: Refusal): void {
    this.firstSeedEventProblem ??= refusal;
    this.problem('seed', refusal);
  }

  /**
   * Notes a kept line's parsed value for the lossless check. dsh's load path does not refuse -0 or
   * overflowing numbers, only its strict constructor and append do: the parsed value is checked while
   * loading, and the few lines that hold one are read again (as events, packed members expanded) when
   * the strict verdict or the diagnostics are asked for.
   */
  noteLine(value: unknown, firstSeq: number, endSeq: number): void {
    if (!isLosslessParsed(value)) this.lossyCandidates.push(firstSeq, endSeq);
  }

  /** The same for a validated packed row, whose few numbers are known (see isLosslessRow). */
  noteRow(row: Record<string, any>, firstSeq: number, endSeq: number): void {
    if (!isLosslessRow(row)) this.lossyCandidates.push(firstSeq, endSeq);
  }

  private scanLossless(index: EventIndex): { first: Refusal | undefined; warnings: Diagnostic[] } {
    const state = this.lossy;
    for (; state.checked < this.lossyCandidates.length; state.checked += 2) {
      const from = this.lossyCandidates[state.checked];
      const to = this.lossyCandidates[state.checked + 1];
      for (let s = from; s < to; s++) {
        const event = index.event(s);
        if (event && !isLosslessJson(event)) {
          const line = index.line(s);
          state.first ??= {
            dshError: `seed event at index ${s} is not losslessly JSON-serializable`,
            errorName: 'Error',
            rule: 'json.lossless-values',
            line,
            seq: s,
          };
          state.warnings.push({
            severity: 'warning',
            rule: 'json.lossless-values',
            ...say(
              'line {0} (seq {1}) holds -0 or a number too large for JSON; dsh loads it but its strict constructor and append refuse it',
              String(line),
              s,
            ),
            line,
            offset: index.lineOffset(s),
            length: index.lineBytes(s),
            seq: s,
          });
        }
      }
    }
    return state;
  }

  lossyWarnings(index: EventIndex): Diagnostic[] {
    return this.scanLossless(index).warnings;
  }

  /** The refusal of the earliest failing stage, if any. */
  private firstRefusal(inputs: VerdictInputs): { stage: Stage; refusal: Refusal } | undefined {
    for (const stage of STAGE_ORDER) {
      let refusal = this.refusals.get(stage);
      if (stage === 'header' && !refusal && !inputs.headerRead) {
        refusal = this.headerless ?? {
          dshError: 'empty or header-less session log',
          errorName: 'Error',
          rule: 'header.line-shape',
          line: 1,
        };
      }
      if (stage === 'adopt') {
        const retired = this.retired.refusal(inputs.sessionId);
        if (retired) refusal = { dshError: retired.message, errorName: retired.typeError ? 'TypeError' : 'Error', rule: retired.rule };
      }
      if (stage === 'closers' && !refusal) refusal = inputs.closerCrash() ?? undefined;
      if (stage === 'seed' && !refusal) refusal = inputs.closerRefusal() ?? undefined;
      if (refusal) return { stage, refusal };
    }
    return undefined;
  }

  verdict(inputs: VerdictInputs): Verdict {
    const first = this.firstRefusal(inputs);
    if (!first) return { ok: true, stage: 'done' };
    const { stage, refusal } = first;
    return {
      ok: false,
      stage,
      error: ourWording(refusal),
      dshError: refusal.dshError,
      errorName: refusal.errorName,
      rule: refusal.rule,
      line: refusal.line,
      seq: refusal.seq,
    };
  }

  /** What dsh's strict constructor (replay/fork path) says of the same seed: events in order, then closers, then the header. */
  strictSeed(inputs: VerdictInputs, index: EventIndex): StrictSeedVerdict {
    const lossy = this.scanLossless(index).first;
    const seedProblem = this.firstSeedEventProblem;
    // The strict constructor snapshots an event (lossless check) before validating it.
    const eventProblem = lossy && (!seedProblem || (lossy.seq ?? 0) <= (seedProblem.seq ?? 0)) ? lossy : seedProblem;
    const first =
      eventProblem ??
      inputs.closerCrash() ??
      inputs.closerRefusal() ??
      (inputs.headerSeedError ? { dshError: inputs.headerSeedError, errorName: 'Error' as const, rule: '' } : undefined);
    return first ? { ok: false, error: first.dshError, errorName: first.errorName } : { ok: true };
  }
}

/** Our wording of a refusal: where, which rule, and dsh's own words (`Verdict.error`). */
export function refusalWording(refusal: Pick<Refusal, 'line' | 'seq' | 'rule' | 'dshError'>): Said {
  const where =
    refusal.line !== undefined
      ? refusal.seq !== undefined
        ? say('line {0} (seq {1})', refusal.line, refusal.seq)
        : say('line {0}', refusal.line)
      : refusal.seq !== undefined
        ? say('seq {0}', refusal.seq)
        : say('the log');
  return say('{0}: {1}: {2}', where, refusal.rule, refusal.dshError);
}

function ourWording(refusal: Refusal): string {
  return refusalWording(refusal).message;
}

/** `Verdict.error` with its words (undefined when the log loads). */
export function verdictError(verdict: Verdict): Said | undefined {
  return verdict.error === undefined
    ? undefined
    : refusalWording({ ...verdict, rule: verdict.rule ?? '', dshError: verdict.dshError ?? '' });
}
