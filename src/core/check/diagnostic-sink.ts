// Collects the warnings of a whole-log check, each pinned to its event's file line, with a cap per
// rule: a log that breaks one rule on every turn of a 300k-event file should stay readable.
import type { Diagnostic, RelatedPlace, Severity } from '../types';
import type { EventFacts } from '../read/event-index';
import { said, type Said } from '../words';

export interface RelatedSeq {
  seq?: number;
  message: string | Said;
}

export class DiagnosticSink {
  readonly diagnostics: Diagnostic[] = [];
  private readonly perRule = new Map<string, number>();

  constructor(
    private readonly log: Pick<EventFacts, 'place'>,
    private readonly maxPerRule = 500,
  ) {}

  /** Adds a diagnostic and returns it (undefined when the rule's cap dropped it). */
  report(
    severity: Severity,
    rule: string,
    seq: number,
    message: string | Said,
    related: readonly RelatedSeq[] = [],
  ): Diagnostic | undefined {
    const n = (this.perRule.get(rule) ?? 0) + 1;
    this.perRule.set(rule, n);
    if (n > this.maxPerRule) return undefined;
    const place = this.log.place(seq);
    const diagnostic: Diagnostic = { severity, rule, ...said(message), seq };
    if (place) Object.assign(diagnostic, { line: place.line, offset: place.offset, length: place.length });
    if (related.length > 0) diagnostic.related = related.map((r) => this.related(r));
    this.diagnostics.push(diagnostic);
    return diagnostic;
  }

  private related(r: RelatedSeq): RelatedPlace {
    const out: RelatedPlace = { ...said(r.message) };
    if (r.seq !== undefined) {
      out.seq = r.seq;
      const line = this.log.place(r.seq)?.line;
      if (line !== undefined) out.line = line;
    }
    return out;
  }

  /** Rules that hit the cap, with how many reports were left out. */
  dropped(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [rule, n] of this.perRule) if (n > this.maxPerRule) out.set(rule, n - this.maxPerRule);
    return out;
  }
}
