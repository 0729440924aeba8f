// One row of the timeline list, drawn from a protocol row. All text is bound as text (Lit escapes it);
// nothing from the session reaches an attribute that could run or load anything.
import { html, nothing, type TemplateResult } from 'lit';
import type { ShadowBracket, TimelineRow } from '../../../src/protocol';
import { oneLine } from '../safe-text';
import { stringsVersion, t } from '../strings';
import type { ColumnWidths } from './column-widths';

export interface RowContext {
  selectedSeq: number | undefined;
  activeIndex: number;
  highlighted: ReadonlySet<number>;
  matches: ReadonlySet<number>;
  brackets: ReadonlyMap<number, ShadowBracket>;
  expandedBrackets: ReadonlySet<number>;
  bracketRows: (bracket: ShadowBracket) => (TimelineRow | undefined)[];
  listId: string;
  /** Rows in the list (each row says its position in it, as only the rows near the viewport exist). */
  total: number;
  /** Seqs start..end chosen with Shift (the range a compaction from the context menu hides). */
  range?: { start: number; end: number };
  /** The fixed columns' widths, fitted to what the rows show. */
  columns: ColumnWidths;
}

/** What a bracket's own controls do; a click on a row itself is taken by `rowClick` for the whole list. */
export interface RowHandlers {
  toggleBracket(replacementSeq: number): void;
  jump(seq: number): void;
}

/** A click in the list, on a row (or its chunk-run twist): found from the element clicked. */
export function rowClick(e: MouseEvent): { index: number; seq: number; twist: boolean } | undefined {
  const target = e.target as Element | null;
  const row = target?.closest<HTMLElement>('.row[data-index]');
  if (!row || row.classList.contains('placeholder')) return undefined;
  return { index: Number(row.dataset.index), seq: Number(row.dataset.seq), twist: !!target?.closest('.twist') };
}

export function rowDomId(listId: string, index: number): string {
  return `${listId}-row-${index}`;
}

/**
 * What a row shows that depends on the row alone, worded once per row object (and again when the
 * strings table changes): a row is drawn again on every redraw of the list.
 */
interface RowWords {
  strings: number;
  name: string;
  context: string;
  classes: string;
  seqText: string;
  turnText: string;
  labelText: string;
  summaryText: string;
  icon: string;
  /** Everything the row says, for its tooltip: what a narrow row has no room for is read here. */
  tooltip: string;
  /** Whether the type name fits its column (set when the row is first drawn). */
  labelShown?: boolean;
}
const words = new WeakMap<TimelineRow, RowWords>();

function wordsOf(row: TimelineRow): RowWords {
  let w = words.get(row);
  if (w === undefined || w.strings !== stringsVersion()) words.set(row, (w = wordRow(row)));
  return w;
}

function wordRow(row: TimelineRow): RowWords {
  const classes = [
    `row surface-${row.surface}`,
    row.turn !== undefined ? (row.turn % 2 ? 'turn-odd' : 'turn-even') : 'no-turn',
    row.step !== undefined && row.step % 2 ? 'step-odd' : '',
    row.severity ? `sev-${row.severity}` : '',
    row.kind === 'chunkRun' ? 'chunk-run' : '',
    row.repair ? 'repair' : '',
    row.inherited ? 'inherited' : '',
    row.systemHead ? 'system-head' : '',
  ];
  return {
    strings: stringsVersion(),
    name: wordName(row),
    context: wordContext(row, undefined),
    classes: classes.filter(Boolean).join(' '),
    seqText: row.kind === 'chunkRun' ? `${row.seq}–${row.lastSeq}` : String(row.seq),
    turnText: row.turn !== undefined ? `${row.turn}${row.step !== undefined ? `.${row.step}` : ''}` : '',
    labelText: row.label,
    summaryText: oneLine(row.summary),
    icon: `codicon codicon-${safeIcon(row.icon)} type-icon`,
    tooltip: wordTooltip(row),
  };
}

/** The row's words in one tooltip: its seq, type, turn and time, then every note the row carries. */
function wordTooltip(row: TimelineRow): string {
  const seq = row.kind === 'chunkRun' ? `seq ${row.seq}–${row.lastSeq}` : `seq ${row.seq}`;
  const parts = [`${seq} ${row.label}`];
  if (row.turn !== undefined) parts.push(row.step !== undefined ? t('turn {0} step {1}', row.turn, row.step) : t('turn {0}', row.turn));
  if (row.timeText) parts.push(row.timeText);
  parts.push(surfaceTitle(row));
  if (row.severity) parts.push(t(row.severity));
  if (row.repair) parts.push(repairWords(row.repair));
  if (row.inherited) parts.push(t('Inherited from the parent session (seed)'));
  if (row.systemHead)
    parts.push(t('The protected system head: the system prompt the model reads first. No compaction or prune can hide it.'));
  if (row.tokensText) parts.push(row.tokensText);
  return parts.join(' · ');
}

/** The accessible name: always starts with `seq N <type>` so a screen reader user hears what it is. */
function wordName(row: TimelineRow): string {
  const parts = [t('seq {0} {1}', row.seq, row.type)];
  if (row.kind === 'chunkRun') parts.push(t('{0} chunks to seq {1}', row.runLength ?? 0, row.lastSeq ?? row.seq));
  if (row.surface === 'node') parts.push(t('on the surface'));
  if (row.surface === 'shadowed') parts.push(row.shadowedBy !== undefined ? t('shadowed by seq {0}', row.shadowedBy) : t('shadowed'));
  if (row.turn !== undefined) parts.push(row.step !== undefined ? t('turn {0} step {1}', row.turn, row.step) : t('turn {0}', row.turn));
  if (row.severity) parts.push(t(row.severity));
  if (row.repair) parts.push(repairWords(row.repair));
  if (row.inherited) parts.push(t('inherited from the parent session'));
  if (row.systemHead) parts.push(t('the protected system head'));
  parts.push(oneLine(row.summary, 160));
  return parts.join(', ');
}

/**
 * Context keys for the row's context menu (VS Code reads `data-vscode-context`): the seq the authoring
 * commands start from, whether the row is a surface node, and its type (Prune Tool Result… needs one).
 * A row is not editable text: the menu offers no Cut, Copy or Paste.
 */
function wordContext(row: TimelineRow, range: RowContext['range']): string {
  const inRange = inRangeOf(row, range);
  return JSON.stringify({
    seq: row.seq,
    ...(inRange ? { start: range!.start, end: range!.end } : {}),
    sessionSurfaceRowType: row.type,
    // The protected system head is on the surface but no compaction may start or end at it.
    sessionSurfaceSurfaceNode: row.surface === 'node' && !row.systemHead,
    preventDefaultContextMenuItems: true,
  });
}

const inRangeOf = (row: TimelineRow, range: RowContext['range']): boolean => !!range && row.seq >= range.start && row.seq <= range.end;

/**
 * Row `index` of the list: `row` once it has arrived, a placeholder until then. Both are one template,
 * so a placeholder turning into its row (or a list slot passing to another row) updates the elements
 * in place instead of making new ones.
 */
export function renderRow(row: TimelineRow | undefined, index: number, ctx: RowContext, on: RowHandlers): TemplateResult {
  if (!row) return rowTemplate(undefined, index, ctx, 'row placeholder', t('loading row {0}', index + 1), false);
  const w = wordsOf(row);
  w.labelShown ??= ctx.columns.fit({ seq: w.seqText, turn: w.turnText, time: row.timeText ?? '', label: w.labelText });
  const selected =
    ctx.selectedSeq !== undefined &&
    (row.seq === ctx.selectedSeq ||
      (row.kind === 'chunkRun' && row.lastSeq !== undefined && ctx.selectedSeq > row.seq && ctx.selectedSeq <= row.lastSeq));
  const inRange = inRangeOf(row, ctx.range);
  let classes = w.classes;
  if (selected) classes += ' selected';
  if (row.index === ctx.activeIndex) classes += ' active';
  if (isLinked(row, ctx.highlighted)) classes += ' linked';
  if (ctx.matches.has(row.seq)) classes += ' match';
  if (inRange) classes += ' in-range';
  const main = rowTemplate(row, index, ctx, classes, w.name, selected, w, inRange ? wordContext(row, ctx.range) : w.context);
  const bracket = row.replacesCount ? ctx.brackets.get(row.seq) : undefined;
  return bracket ? html`${main}${renderBracket(bracket, ctx, on)}` : main;
}

function rowTemplate(
  row: TimelineRow | undefined,
  index: number,
  ctx: RowContext,
  classes: string,
  name: string,
  selected: boolean,
  w?: RowWords,
  context?: string,
): TemplateResult {
  return html`<div
    class=${classes}
    id=${rowDomId(ctx.listId, index)}
    role="option"
    aria-selected=${selected ? 'true' : 'false'}
    aria-label=${name}
    aria-posinset=${index + 1}
    aria-setsize=${ctx.total}
    data-seq=${row?.seq ?? nothing}
    data-type=${row?.type ?? nothing}
    data-index=${row ? index : nothing}
    data-surface=${row?.surface ?? nothing}
    data-message-index=${row?.messageIndex ?? nothing}
    data-shadowed-by=${row?.shadowedBy ?? nothing}
    data-repair=${row?.repair ?? nothing}
    data-inherited=${row?.inherited ? 'true' : nothing}
    data-system-head=${row?.systemHead ? 'true' : nothing}
    data-vscode-context=${context ?? nothing}
    title=${w?.tooltip ?? nothing}
  >
    <span class="surface-mark" aria-hidden="true"></span>
    ${row?.kind === 'chunkRun' ? html`<span class="codicon codicon-chevron-right twist" aria-hidden="true"></span>` : nothing}
    <span class=${w?.icon ?? 'type-icon'} aria-hidden="true"></span>
    <span class="cell seq">${w?.seqText ?? ''}</span>
    <span class="cell turn">${w?.turnText ?? ''}</span>
    <span class="cell time">${row?.timeText ?? ''}</span>
    <span class="cell label">${w?.labelShown === false ? '' : (w?.labelText ?? '')}</span>
    <span class="cell summary">${w ? w.summaryText : '…'}</span>
    ${row?.severity ? html`<span class="codicon codicon-${row.severity === 'info' ? 'info' : row.severity} sev" aria-hidden="true"></span>` : nothing}
    ${row && hasNotes(row) ? renderNotes(row) : nothing}
  </div>`;
}

const hasNotes = (row: TimelineRow): boolean =>
  !!row.repair || !!row.inherited || !!row.systemHead || row.shadowedBy !== undefined || !!row.tokensText;

/**
 * The notes after the summary (repair, seed, protected head, shadowed by, tokens). The row is a flex line that wraps,
 * one line high: a note with no room on the line moves to a line that is never shown, whole, and the
 * summary takes its room (the row's tooltip still says it).
 */
function renderNotes(row: TimelineRow): TemplateResult {
  return html`${
    row.repair
      ? html`<span class="note repair-mark"
          ><span class="codicon codicon-tools" aria-hidden="true"></span>${row.repair === 'closer' ? t('repair') : t('reopened')}</span
        >`
      : nothing
  }${
    row.inherited
      ? html`<span class="note inherited-mark"
          ><span class="codicon codicon-type-hierarchy-super" aria-hidden="true"></span>${t('seed')}</span
        >`
      : nothing
  }${
    row.systemHead
      ? html`<span class="note head-mark"><span class="codicon codicon-lock" aria-hidden="true"></span>${t('protected')}</span>`
      : nothing
  }${row.shadowedBy !== undefined ? html`<span class="note shadow-note">${t('shadowed by {0}', row.shadowedBy)}</span>` : nothing}${
    row.tokensText ? html`<span class="note tokens">${row.tokensText}</span>` : nothing
  }`;
}

function renderBracket(b: ShadowBracket, ctx: RowContext, on: RowHandlers): TemplateResult {
  const open = ctx.expandedBrackets.has(b.replacementSeq);
  const name =
    b.shadowedCount === 1
      ? t('Shadowed by seq {0} (1 event)', b.replacementSeq)
      : t('Shadowed by seq {0} ({1} events)', b.replacementSeq, b.shadowedCount);
  const rows = open ? ctx.bracketRows(b) : [];
  return html`<div class="bracket ${open ? 'open' : ''}" role="group" aria-label=${name} data-replacement=${b.replacementSeq}>
    <div class="bracket-head" @click=${() => on.toggleBracket(b.replacementSeq)}>
      <span class="codicon codicon-${open ? 'chevron-down' : 'chevron-right'}" aria-hidden="true"></span>
      <span class="bracket-title">${name}</span>
      <span class="bracket-excerpt">${oneLine(b.excerpt, 120)}</span>
      ${b.tokensText ? html`<span class="tokens">${b.tokensText}</span>` : nothing}
    </div>
    ${
      open
        ? html`<ul class="bracket-rows">
            ${rows.map((r, i) =>
              r
                ? html`<li>
                    <a
                      href="#"
                      class="bracket-row"
                      data-seq=${r.seq}
                      tabindex="-1"
                      @click=${(e: Event) => {
                        e.preventDefault();
                        on.jump(r.seq);
                      }}
                    >
                      <span class="codicon codicon-${safeIcon(r.icon)}" aria-hidden="true"></span>
                      <span class="seq">${r.seq}</span> <span class="label">${r.label}</span>
                      <span class="summary">${oneLine(r.summary, 160)}</span></a
                    >
                  </li>`
                : html`<li class="muted">seq ${b.shadowedSeqs[i]} …</li>`,
            )}
            ${b.shadowedCount > rows.length ? html`<li class="muted">${t('and {0} more', b.shadowedCount - rows.length)}</li>` : nothing}
          </ul>`
        : nothing
    }
  </div>`;
}

function repairWords(repair: 'closer' | 'seed'): string {
  return repair === 'closer' ? t('written by a crash repair') : t('written when dsh reopened the session after a crash repair');
}

/** A chunk run row stands for all its chunks: it is linked when any of them is. */
function isLinked(row: TimelineRow, highlighted: ReadonlySet<number>): boolean {
  if (highlighted.has(row.seq)) return true;
  if (row.kind !== 'chunkRun' || row.lastSeq === undefined || highlighted.size === 0) return false;
  for (const seq of highlighted) if (seq >= row.seq && seq <= row.lastSeq) return true;
  return false;
}

function surfaceTitle(row: TimelineRow): string {
  if (row.surface === 'node') return t('On the surface (the model sees it)');
  if (row.surface === 'shadowed') return t('Shadowed by seq {0}', row.shadowedBy ?? '?');
  return t('Log only (the model does not see it)');
}

/** Icon names come from the host; keep them to the codicon alphabet so they only ever pick a glyph. */
export function safeIcon(name: string): string {
  return /^[a-z0-9-]{1,40}$/.test(name) ? name : 'circle-small';
}
