// dsh's chain of adjacent migrations: the header carried edge by edge, and the events streamed
// through one stage per edge, row by row, so that a refusal surfaces while the row that caused it is
// being decoded (the corpus's `line` of a migrate refusal is that row's line). A stage's failure is
// reported as dsh reports it: an unsupported-migration error as it is, anything else as
// "<migration name> refuses this format vN Session: <detail>".
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from './errors';
import { formatCount, snapshotFormatHeader } from './json';
import type { EventRun, EventSink, FormatMigration, LogicalHeader, MigrationStage } from './types';

/** Which migration each refusal came from (the innermost one: a later stage's refusal passes earlier wrappers as is). */
const refusals = new WeakMap<object, FormatMigration>();

/** The refusal a stage's failure becomes (dsh's wording; an unsupported-migration error passes as is). */
export function migrationRefusal(migration: FormatMigration, error: unknown, subject = 'Session'): SessionFormatUnsupportedMigrationError {
  if (error instanceof SessionFormatUnsupportedMigrationError) {
    if (!refusals.has(error)) refusals.set(error, migration);
    return error;
  }
  const detail = error instanceof Error ? error.message : String(error);
  const refusal = new SessionFormatUnsupportedMigrationError(
    `${migration.name} refuses this format v${migration.fromVersion} ${subject}: ${detail}`,
    {
      cause: error,
    },
  );
  refusals.set(refusal, migration);
  return refusal;
}

/** The migration a refusal came from, when it came from one. */
export function refusingMigration(error: unknown): FormatMigration | undefined {
  return typeof error === 'object' && error !== null ? refusals.get(error) : undefined;
}

/** The events of one artifact flowing through the stages of a plan. */
export interface MigrationStream extends EventSink {
  /** The target generation's logical header. */
  readonly header: LogicalHeader;
  /** Flushes every stage in order and returns the target's inherited cut. */
  finish(): number;
}

/** The adjacent migrations of a build, by source version. */
export class MigrationChain {
  private readonly byFrom = new Map<number, FormatMigration>();

  constructor(migrations: readonly FormatMigration[]) {
    for (const migration of migrations) {
      if (migration.toVersion !== migration.fromVersion + 1)
        throw new SessionFormatError(`${migration.name} must declare adjacent v${migration.fromVersion}->v${migration.fromVersion + 1}`);
      if (this.byFrom.has(migration.fromVersion))
        throw new SessionFormatError(`Session migration v${migration.fromVersion}->v${migration.toVersion} is duplicated`);
      this.byFrom.set(migration.fromVersion, migration);
    }
  }

  /** The migrations from `fromVersion` up to `toVersion`, in order. */
  plan(fromVersion: number, toVersion: number): FormatMigration[] {
    const from = formatCount(fromVersion, 'stored Session format version');
    if (from > toVersion)
      throw new SessionFormatUnsupportedMigrationError(`stored Session uses newer format v${from}; this build writes v${toVersion}`);
    const plan: FormatMigration[] = [];
    for (let version = from; version < toVersion; version++) {
      const migration = this.byFrom.get(version);
      if (!migration) throw new SessionFormatUnsupportedMigrationError(`Session migration v${version}->v${version + 1} is missing`);
      plan.push(migration);
    }
    return plan;
  }

  /** A header carried edge by edge, each edge's header rules applied. */
  migrateHeader(header: LogicalHeader, toVersion: number): LogicalHeader {
    let current = snapshotFormatHeader(header, 'stored Session header');
    for (const migration of this.plan(current.version, toVersion)) current = advanceHeader(migration, current);
    return current;
  }

  /** Stages for one artifact, their output going to `output`. Stage construction failures are refusals. */
  createStream(
    sourceHeader: LogicalHeader,
    sourceInheritedEventCount: number | undefined,
    toVersion: number,
    output: EventSink,
    evidence?: Readonly<Record<string, unknown>>,
  ): MigrationStream {
    const cut =
      sourceInheritedEventCount === undefined ? undefined : formatCount(sourceInheritedEventCount, 'Session inherited event count');
    const plan = this.plan(sourceHeader.version, toVersion);
    const stages: { migration: FormatMigration; stage: MigrationStage }[] = [];
    let header = sourceHeader;
    let inherited = cut;
    for (const [index, migration] of plan.entries()) {
      const targetHeader = advanceHeader(migration, header);
      let stage: MigrationStage;
      try {
        stage = migration.createStage({
          sourceHeader: header,
          targetHeader,
          sourceInheritedEventCount: inherited,
          sourceKind: index === 0 ? 'decoded' : 'transformed',
          ...(evidence ? { evidence } : {}),
        });
      } catch (error) {
        throw migrationRefusal(migration, error);
      }
      header = targetHeader;
      stages.push({ migration, stage });
      // A stage that learns the target cut only while streaming (v1→v2 of a seeded source) declares
      // none; the next stage then starts without one and takes the cut from the events.
      if (index + 1 < plan.length) inherited = stage.headerInheritedEventCount;
    }
    return new ChainedStream(header, cut, stages, output);
  }
}

function advanceHeader(migration: FormatMigration, source: LogicalHeader): LogicalHeader {
  let target: LogicalHeader;
  try {
    target = migration.migrateHeader(snapshotFormatHeader(source, `${migration.name} header input`));
  } catch (error) {
    throw migrationRefusal(migration, error, 'Session header');
  }
  const current = snapshotFormatHeader(target, `${migration.name} header output`);
  if (current.version !== migration.toVersion)
    throw new SessionFormatError(`${migration.name} header returned v${current.version}; expected v${migration.toVersion}`);
  try {
    migration.validateTargetHeader(current);
  } catch (error) {
    throw migrationRefusal(migration, error, 'Session header');
  }
  return current;
}

/** One stage seen as the sink of the stage (or decoder) before it. */
class StageInput implements EventSink {
  constructor(
    private readonly migration: FormatMigration,
    private readonly stage: MigrationStage,
    private readonly output: EventSink,
  ) {}

  emitEvent(event: Parameters<EventSink['emitEvent']>[0]): void {
    try {
      this.stage.transformEvent(event, this.output);
    } catch (error) {
      throw migrationRefusal(this.migration, error);
    }
  }

  emitRun(run: EventRun): void {
    try {
      this.stage.transformRun(run, this.output);
    } catch (error) {
      throw migrationRefusal(this.migration, error);
    }
  }

  finish(): number {
    let cut: number;
    try {
      cut = this.stage.finish(this.output);
    } catch (error) {
      throw migrationRefusal(this.migration, error);
    }
    if (this.stage.headerInheritedEventCount !== undefined && this.stage.headerInheritedEventCount !== cut)
      throw new SessionFormatError(`${this.migration.name} changed its predeclared inherited cut`);
    return cut;
  }
}

class ChainedStream implements MigrationStream {
  private readonly input: EventSink;
  private readonly inputs: StageInput[];

  constructor(
    readonly header: LogicalHeader,
    private readonly sourceInheritedEventCount: number | undefined,
    stages: readonly { migration: FormatMigration; stage: MigrationStage }[],
    output: EventSink,
  ) {
    let downstream: EventSink = output;
    const inputs: StageInput[] = [];
    for (let i = stages.length - 1; i >= 0; i--) {
      const input = new StageInput(stages[i].migration, stages[i].stage, downstream);
      inputs.unshift(input);
      downstream = input;
    }
    this.input = downstream;
    this.inputs = inputs;
  }

  emitEvent(event: Parameters<EventSink['emitEvent']>[0]): void {
    this.input.emitEvent(event);
  }

  emitRun(run: EventRun): void {
    this.input.emitRun(run);
  }

  finish(): number {
    let cut = this.sourceInheritedEventCount;
    for (const input of this.inputs) cut = input.finish();
    return formatCount(cut, 'Session inherited event count');
  }
}
