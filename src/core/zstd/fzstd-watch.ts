// Watching fzstd decode a frame into our buffer, so a frame can be stopped as soon as its text passes the
// text budget or a line passes the line limit: fzstd reports no progress itself, but the calls it makes on
// the buffer it is given (`subarray` per compressed block, `set` per raw block) reveal where it writes.
import { lineLimitError, textLimitError } from './decode-errors';

const NEWLINE = 0x0a;

/**
 * Follows fzstd through a frame decoded into our buffer: fzstd calls `subarray` at the start of every
 * compressed block and `set` for every raw block, each at its output position. A position beyond the text
 * budget, or a run without a newline longer than the line limit, stops the decoder by throwing.
 */
export class Watch {
  /** The last output position fzstd revealed (-1: none yet). */
  position = -1;
  private checked = 0;
  private lineStart = 0;
  constructor(
    private readonly target: Uint8Array,
    private readonly budget: number,
    private readonly lineLimit: number,
    private readonly limit: number,
  ) {}

  /** fzstd is at `position`; with `written` false, the bytes up to it are about to be written. */
  reveal(position: number, written = true): void {
    if (position > this.budget) throw textLimitError('decodes to more text than the limit leaves', this.limit);
    if (written) this.scanLines(position);
    this.position = position;
  }

  /** The last bytes, up to the frame's end. */
  finish(end: number): void {
    if (end > this.budget) throw textLimitError('decodes to more text than the limit leaves', this.limit);
    this.scanLines(end);
  }

  private scanLines(upTo: number): void {
    const end = Math.min(upTo, this.target.length);
    if (end <= this.checked) return;
    const fresh = new Uint8Array(this.target.buffer, this.target.byteOffset + this.checked, end - this.checked);
    const newline = fresh.lastIndexOf(NEWLINE);
    if (newline >= 0) this.lineStart = this.checked + newline + 1;
    this.checked = end;
    if (end - this.lineStart > this.lineLimit) throw lineLimitError(this.lineLimit);
  }
}

/**
 * A view of our output buffer handed to fzstd. fzstd 0.1.x tells "allocate for me" from a caller's
 * buffer with loose comparisons (`buf == 1`), which convert a plain Uint8Array to a string of all its
 * bytes: seconds for a large frame. This view converts to NaN instead, so the comparisons stay false
 * and cheap. With a `watch`, the positions fzstd writes at are reported to it (see `Watch`).
 */
export class WatchedTarget extends Uint8Array {
  watch: Watch | undefined;
  [Symbol.toPrimitive](): number {
    return NaN;
  }
  override subarray(begin?: number, end?: number): Uint8Array<ArrayBuffer> {
    if (this.watch && begin !== undefined) this.watch.reveal(begin);
    return super.subarray(begin, end);
  }
  override set(array: ArrayLike<number>, offset?: number): void {
    const watch = this.watch;
    if (!watch || offset === undefined) return super.set(array, offset);
    // Everything before `offset` is written; the raw block about to be written must fit the budget.
    watch.reveal(offset);
    watch.reveal(offset + array.length, false);
    super.set(array, offset);
  }
}
