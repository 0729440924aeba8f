// The widths of the list's fixed columns (seq, turn, time, type). Each column is as wide as the widest
// text it has shown, measured once per distinct text, so no value is ever cut to a stub ("1059–…",
// "Compaction summ…"): a column only grows, and rows drawn before keep their alignment with the head.
// The type column stops growing at a limit that leaves the summary its room; a type name wider than
// that is not drawn in the row (the row's tooltip and the inspector name it).
export type FittedColumn = 'seq' | 'turn' | 'time' | 'label';

/** The widest a type name may make its column, in widths of the digit 0 of the list's font. */
const LABEL_LIMIT_CH = 24;
/** What the columns start at before any row is measured (the common values of a log fit in them). */
const START_CH: Record<FittedColumn, number> = { seq: 5, turn: 5, time: 8, label: 12 };
/** Room for subpixel rounding and the italic of a shadowed row's label. */
const SLACK_PX = 3;

export class ColumnWidths {
  private readonly px: Record<FittedColumn, number> = { seq: 0, turn: 0, time: 0, label: 0 };
  private readonly measured = new Map<string, number>();
  private context: CanvasRenderingContext2D | null | undefined;
  private fonts: { mono: string; ui: string } | undefined;
  private zeroPx = 0;
  private pending = false;

  /** `target` carries the widths as CSS variables (--col-seq, …) for the rows and the column head. */
  constructor(private readonly target: () => HTMLElement | null) {}

  /** Widens the columns a row's texts do not fit in; false when its type name is over the limit. */
  fit(texts: Record<FittedColumn, string>): boolean {
    if (!this.ready()) return true;
    let grew = false;
    for (const column of ['seq', 'turn', 'time'] as const) grew = this.widen(column, this.width(column, texts[column])) || grew;
    const label = this.width('label', texts.label);
    const fits = label <= this.zeroPx * LABEL_LIMIT_CH;
    if (fits) grew = this.widen('label', label) || grew;
    if (grew) this.applySoon();
    return fits;
  }

  private widen(column: FittedColumn, width: number): boolean {
    if (width <= this.px[column]) return false;
    this.px[column] = width;
    return true;
  }

  private width(column: FittedColumn, text: string): number {
    if (!text) return 0;
    const font = column === 'seq' ? this.fonts!.mono : this.fonts!.ui;
    const key = `${column === 'seq' ? 'm' : 'u'}${text}`;
    let w = this.measured.get(key);
    if (w === undefined) {
      this.context!.font = font;
      w = Math.ceil(this.context!.measureText(text).width) + SLACK_PX;
      this.measured.set(key, w);
    }
    return w;
  }

  /** The fonts of the rows' cells, read once the page's stylesheet and the theme's variables apply. */
  private ready(): boolean {
    if (this.fonts) return true;
    if (this.context === undefined) this.context = document.createElement('canvas').getContext('2d');
    if (!this.context) return false;
    const style = getComputedStyle(document.body);
    const size = style.fontSize || '13px';
    const family = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    this.fonts = {
      ui: `${size} ${family('--vscode-font-family', 'sans-serif')}`,
      mono: `${size} ${family('--vscode-editor-font-family', 'monospace')}`,
    };
    this.context.font = this.fonts.ui;
    this.zeroPx = this.context.measureText('0').width;
    for (const column of Object.keys(START_CH) as FittedColumn[]) {
      this.context.font = column === 'seq' ? this.fonts.mono : this.fonts.ui;
      this.px[column] = Math.ceil(this.context.measureText('0'.repeat(START_CH[column])).width) + SLACK_PX;
    }
    this.applySoon();
    return true;
  }

  /** One write of the variables per frame, however many rows widened a column in it. */
  private applySoon(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      const el = this.target();
      if (!el) return;
      for (const column of Object.keys(this.px) as FittedColumn[]) el.style.setProperty(`--col-${column}`, `${this.px[column]}px`);
    });
  }
}
