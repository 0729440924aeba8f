// Surface as of seq N: the surface and the derived messages after folding every event up to N; and
// the derived messages of two points compared (for instance just before and just after a compaction).
// The fields hold what the user typed; the results stay until asked for again (an append does not
// change a view of an earlier point).
import type { MessagesDiff, SurfaceAsOf } from '../../../src/protocol';
import { counted, t } from '../strings';
import type { NavigationController } from './navigation-controller';
import { TimelineController, type TimelineHost } from './timeline-host';

/** Surface nodes listed at most. */
export const NODES_SHOWN = 300;

export interface AsOfOptions {
  /** Puts the focus in the "As of seq" field (once the panel is drawn). */
  focusInput(): void;
}

const seqOf = (text: string): number | undefined => {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

export class AsOfController extends TimelineController {
  open = false;
  asOfSeq = '';
  fromSeq = '';
  toSeq = '';
  result: SurfaceAsOf | undefined;
  diff: MessagesDiff | undefined;
  error = '';

  constructor(
    host: TimelineHost,
    private readonly navigation: NavigationController,
    private readonly options: AsOfOptions,
  ) {
    super(host);
  }

  /** The selected event, which "Use the selected event" takes. */
  get selection(): number | undefined {
    return this.navigation.selectedSeq;
  }

  toggle(): void {
    this.open = !this.open;
    if (this.open && !this.asOfSeq && this.navigation.selectedSeq !== undefined) this.asOfSeq = String(this.navigation.selectedSeq);
    this.host.requestUpdate();
    if (this.open) void this.host.updateComplete.then(() => this.options.focusInput());
  }

  async show(): Promise<void> {
    const seq = seqOf(this.asOfSeq);
    if (seq === undefined) {
      this.error = t('Enter a seq (a whole number).');
      this.host.requestUpdate();
      return;
    }
    try {
      const { result } = await this.host.request('surfaceAsOf', { seq, start: 0, count: NODES_SHOWN });
      this.result = result;
      this.error = '';
      this.host.say(t('As of seq {0}: {1} surface nodes, {2} messages', seq, result.surfaceLength, result.messageCount));
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.host.requestUpdate();
  }

  async compare(): Promise<void> {
    const from = seqOf(this.fromSeq);
    const to = seqOf(this.toSeq);
    if (from === undefined || to === undefined) {
      this.error = t('Enter two seqs to compare.');
      this.host.requestUpdate();
      return;
    }
    try {
      const { result } = await this.host.request('diffAsOf', { fromSeq: from, toSeq: to });
      this.diff = result;
      this.error = '';
      this.host.say(
        counted(
          result.added,
          '1 message added, {1} removed between seq {2} and seq {3}',
          '{0} messages added, {1} removed between seq {2} and seq {3}',
          result.removed,
          from,
          to,
        ),
      );
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.host.requestUpdate();
  }

  /** Fills the fields from the selection: as of it, and compared with the seq before it. */
  useSelection(): void {
    const s = this.navigation.selectedSeq;
    if (s === undefined) return;
    this.asOfSeq = String(s);
    this.fromSeq = String(Math.max(0, s - 1));
    this.toSeq = String(s);
    this.host.requestUpdate();
  }
}
