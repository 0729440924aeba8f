// An event a pending edit would append: planned, shown in the timeline, not in the file until Save.
import { count, shape, str, type Validator } from './validate';

export interface PendingEventRow {
  seq: number;
  type: string;
  /** The type in words ("Compaction start"). */
  label: string;
  /** A codicon name without the `codicon-` prefix. */
  icon: string;
  /** The edit that plans it ("Compact seqs 3–10"). */
  edit: string;
}
export const isPendingEventRow: Validator<PendingEventRow> = shape<PendingEventRow>({
  seq: count,
  type: str,
  label: str,
  icon: str,
  edit: str,
});
