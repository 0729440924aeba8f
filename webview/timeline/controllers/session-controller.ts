// The log as a whole, as the host last described it: load progress or failure, the summary (and the
// changes an append makes to it), the children in the sessions folder, the overview strip's data and
// the events pending edits would append. Every word shown here is the host's: an append brings the
// facts it changes already worded, so the summary is replaced, never reworded.
import type { AppendedNote, LoadProgress, Overview, PendingEventRow, SessionSummary } from '../../../src/protocol';
import { TimelineController } from './timeline-host';

/** Buckets of the overview strip (about one per two pixels of a tall editor). */
const OVERVIEW_BUCKETS = 400;

export class SessionController extends TimelineController {
  loading: LoadProgress | undefined;
  failed: string | undefined;
  summary: SessionSummary | undefined;
  /** Child sessions of this one in the sessions folder (asked once per load). */
  children = 0;
  overview: Overview | undefined;
  pendingEvents: readonly PendingEventRow[] = [];

  onLoading(progress: LoadProgress): void {
    this.loading = progress;
    this.failed = undefined;
    this.host.requestUpdate();
  }

  onFailed(message: string): void {
    this.failed = message;
    this.loading = undefined;
    this.host.requestUpdate();
  }

  /** Whether `s` is the first summary of a load (a new file, or the same one read again). */
  startsLoad(s: SessionSummary): boolean {
    return !this.summary || this.summary.generation.load !== s.generation.load;
  }

  /** A new summary; true when it is the first of a load. */
  onSummary(s: SessionSummary): boolean {
    const first = this.startsLoad(s);
    const wasLive = this.summary?.liveText;
    this.summary = s;
    this.loading = undefined;
    this.failed = undefined;
    if (!first && wasLive !== s.liveText) this.host.say(s.liveText);
    this.host.requestUpdate();
    return first;
  }

  /** A live log grew: the counts, the worded facts, the live state and the file state are the note's. */
  onAppended(note: AppendedNote): void {
    const s = this.summary;
    if (!s) return;
    const liveChanged = s.liveText !== note.liveText;
    const { counts, facts, live, liveText, file, generation } = note;
    this.summary = { ...s, counts, facts, live, liveText, file, generation };
    if (liveChanged) this.host.say(note.liveText);
    this.host.requestUpdate();
  }

  onPendingEdits(events: readonly PendingEventRow[]): void {
    this.pendingEvents = events;
    this.host.requestUpdate();
  }

  async loadChildren(): Promise<void> {
    const { result } = await this.host.request('lineage', {});
    this.children = result.children;
    this.host.requestUpdate();
  }

  async loadOverview(): Promise<void> {
    const { result } = await this.host.request('overview', { buckets: OVERVIEW_BUCKETS });
    this.overview = result;
    this.host.requestUpdate();
  }
}
