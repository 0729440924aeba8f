// The native v4 restore (spec §6): what a v4 reader refuses in a whole artifact. Two levels, as dsh has
// them: the rules this generation owns (vocabulary, per-event fields, inherited cut, relationships),
// which a migrated artifact also meets, and on top of them the installed session's checks of each
// event's envelope, surface metadata, message and request header, which a log read as v4 meets.
//
// dsh runs these as passes over the whole artifact, one after another; here they run side by side as
// the events are decoded (PassRefusals keeps their order, so the refusal thrown is the same), and
// only compact facts are kept for the rules that look back.
import type { Artifact, FormatEvent, LogicalHeader, RestoreVisit, StreamingRestorer } from '../types';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { PassRefusals, restoreWhole } from '../restore-visit';
import { assertV4Header } from './header';
import { assertNoRetiredSyntax } from './rules/retired-syntax';
import { assertSystemMessageFields } from './rules/system-message';
import { assertForkResultIdentity } from './rules/fork-result';
import { V4Lifecycle } from './rules/lifecycle';
import { V4SessionRelationships } from './rules/relationships';
import { assertSessionEventShape } from './rules/session-shape';
import { ToolResultRewrites } from './rules/tool-result-rewrite';
import { assertToolRoleResult } from './tool-role';
import { admissionDefers } from './rules/row-admission';
import { isJsonObject, formatCount } from '../json';
import { V4_EVENT_TYPES } from './vocabulary';

/** The passes in dsh's order: the generation's own (header and cut, events, relationships, lifecycle), then the installed session's. */
const HEADER = 0;
const EVENTS = 1;
const RELATIONSHIPS = 2;
const LIFECYCLE = 3;
const SHAPES = 4;
const REWRITES = 5;

class V4RestoreVisit implements RestoreVisit {
  private readonly refusals = new PassRefusals(REWRITES + 1);
  private count = 0;
  private lastInheritedMarker: number | undefined;
  private readonly relationships: V4SessionRelationships;
  private readonly lifecycle: V4Lifecycle;
  /** The installed session's rewrite rule (a native read only). */
  private readonly rewrites: ToolResultRewrites | undefined;

  constructor(
    private readonly header: LogicalHeader,
    private readonly knownTypes: ReadonlySet<string>,
    /** Whether the installed session's checks run too (a log read as v4, not one migrated to it). */
    private readonly installed: boolean,
    /**
     * Whether the events come from the v4 codec (a log read as v4): its admission applied each row's
     * rules and its v2 layout checked the envelope's fields, and either would have refused the read,
     * so neither is applied again.
     */
    private readonly decoded: boolean,
  ) {
    this.refusals.run(HEADER, () => assertV4Header(header));
    this.relationships = new V4SessionRelationships(header, decoded);
    this.lifecycle = new V4Lifecycle(knownTypes);
    // The rewrite rule reads the lifecycle's fold: the rule matters only while the lifecycle pass has no
    // certain refusal, and then the lifecycle has folded every known event up to this one.
    this.rewrites = installed ? new ToolResultRewrites(knownTypes, false) : undefined;
  }

  // Each pass's step is written out (no closure per event and pass: this runs for every event of a log).
  event(event: FormatEvent): void {
    const index = this.count++;
    const refusals = this.refusals;
    if (refusals.open(EVENTS)) {
      try {
        this.generationRules(event, index);
      } catch (error) {
        refusals.refuse(EVENTS, error);
      }
    }
    // A certain refusal of the header or of an event's own rules makes the rest moot (and an event
    // that is not an object always has one).
    if (!refusals.matters(RELATIONSHIPS)) return;
    if (refusals.open(RELATIONSHIPS) && this.knownTypes.has(event.type)) {
      try {
        this.relationships.accept(event);
      } catch (error) {
        refusals.refuse(RELATIONSHIPS, error);
      }
    }
    if (!refusals.matters(LIFECYCLE)) return;
    if (refusals.open(LIFECYCLE)) {
      try {
        this.lifecycle.accept(event);
      } catch (error) {
        refusals.refuse(LIFECYCLE, error);
      }
    }
    const crossing = this.lifecycle.observe(event, index);
    if (crossing) refusals.overrule(LIFECYCLE, crossing);
    if (!this.installed) return;
    if (refusals.open(SHAPES)) {
      try {
        assertSessionEventShape(event, this.knownTypes, this.decoded);
      } catch (error) {
        refusals.refuse(SHAPES, error);
      }
    }
    if (refusals.open(REWRITES)) {
      try {
        this.rewrites!.accept(event, this.lifecycle.shadowed);
      } catch (error) {
        refusals.refuse(REWRITES, error);
      }
    }
  }

  /** An event's own rules: known or ignorable, dense, no retired syntax, its fields as v4 has them. */
  private generationRules(event: FormatEvent, index: number): void {
    const known = this.knownTypes.has(event.type);
    if (!known && event.ignorable !== true) {
      throw new SessionFormatUnsupportedMigrationError(
        `format v4 contains unknown event type ${JSON.stringify(event.type)} at seq ${index}`,
      );
    }
    if (event.seq !== index) throw new SessionFormatError(`format v4 event ${index} is not dense`);
    if (!known) return;
    if (!this.decoded || admissionDefers(event)) {
      assertNoRetiredSyntax(event);
      assertSystemMessageFields(event);
      assertToolRoleResult(event);
      assertForkResultIdentity(event);
    }
    if (event.type === 'session/end-seed' && isJsonObject(event.data) && event.data.inherited === true) this.lastInheritedMarker = index;
  }

  finish(inheritedEventCount: number): void {
    const refusals = this.refusals;
    const header = this.header;
    refusals.throwOf(HEADER);
    const cut = formatCount(inheritedEventCount, 'format v4 inherited event count');
    if (cut > this.count) throw new SessionFormatError('format v4 inherited event count exceeds its events');
    if (!header.isSeeded && cut !== 0) throw new SessionFormatError('unseeded format v4 Session has inherited events');
    refusals.throwOf(EVENTS);
    if (header.isSeeded && this.lastInheritedMarker !== cut) {
      throw new SessionFormatError('format v4 seeded header disagrees with its last inherited end-seed marker');
    }
    if (!header.isSeeded && this.lastInheritedMarker !== undefined) {
      throw new SessionFormatError('format v4 unseeded Session contains an inherited end-seed marker');
    }
    const dependent = this.relationships.deferredRefusal(cut);
    if (dependent) throw dependent.error;
    refusals.throwOf(RELATIONSHIPS);
    const crossing = this.lifecycle.finish();
    if (crossing) refusals.overrule(LIFECYCLE, crossing);
    refusals.throwOf(LIFECYCLE);
    refusals.throwOf(SHAPES);
    refusals.throwOf(REWRITES);
  }
}

/**
 * The rules of generation 4 itself (dsh's restoreReleasedV4Artifact), as the catalog runs them over a
 * migrated log. An unknown type is refused unless ignorable; an ignorable one is kept opaque: none of
 * its fields, surface metadata included, is read.
 */
export function v4GenerationRestore(knownTypes: ReadonlySet<string> = V4_EVENT_TYPES): StreamingRestorer {
  return (header, decoded) => new V4RestoreVisit(header, knownTypes, false, decoded);
}

/**
 * The whole v4 restore (dsh's catalog with `validation: 'current'`): the generation's rules, then the
 * installed session's per-event checks and its rule for rewritten results. Events decoded by the v4
 * codec (a log read as v4) passed its admission of every row, which applied the row rules already
 * (and refused the read had one failed): they are not applied a second time.
 */
export const v4Restore: StreamingRestorer = (header, decoded) => new V4RestoreVisit(header, V4_EVENT_TYPES, true, decoded);

/** The rules of generation 4 over an artifact in memory; returns the artifact unchanged. */
export function restoreV4Generation(artifact: Artifact, knownTypes: ReadonlySet<string> = V4_EVENT_TYPES): Artifact {
  return restoreWhole(v4GenerationRestore(knownTypes), artifact);
}

/** The whole v4 restore of an artifact in memory (every rule applied to every event); returns the artifact unchanged. */
export function restoreV4(artifact: Artifact): Artifact {
  return restoreWhole(v4Restore, artifact);
}
