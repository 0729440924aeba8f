// Runs logical events through adjacent migrations the way the catalog does (the chain streams them
// stage by stage and reports a refusal as dsh words it), for tests that craft their own events.
import {
  MigrationChain,
  type EventRun,
  type FormatCodec,
  type FormatEvent,
  type FormatMigration,
  type LogicalHeader,
} from '../../src/core/format';

export interface Migrated {
  header: LogicalHeader;
  inheritedEventCount: number;
  events: FormatEvent[];
}

/** Either a logical event or a packed run, in source order. */
export type SourceItem = FormatEvent | EventRun;

function isRun(item: SourceItem): item is EventRun {
  return typeof (item as EventRun).runType === 'string';
}

export function migrate(
  migrations: readonly FormatMigration[],
  header: LogicalHeader,
  inheritedEventCount: number | undefined,
  items: readonly SourceItem[],
  toVersion = migrations[migrations.length - 1].toVersion,
): Migrated {
  const events: FormatEvent[] = [];
  const output = {
    emitEvent: (event: FormatEvent) => events.push(event),
    emitRun: (run: EventRun) => {
      for (const event of run.expand()) events.push(event);
    },
  };
  const stream = new MigrationChain(migrations).createStream(header, inheritedEventCount, toVersion, output);
  for (const item of items)
    if (isRun(item)) stream.emitRun(item);
    else stream.emitEvent(item);
  const cut = stream.finish();
  return { header: stream.header, inheritedEventCount: cut, events };
}

/** The artifact as dsh's encoder writes it: the header line, then one event per line. */
export function encodeLines(codec: FormatCodec, artifact: Migrated): string[] {
  return [
    JSON.stringify(codec.encodeHeader(artifact.header, artifact.inheritedEventCount)),
    ...artifact.events.map((event) => JSON.stringify(codec.encodeEvent(event))),
  ];
}
