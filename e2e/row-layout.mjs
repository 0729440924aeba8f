// Checks of the timeline's layout as the browser laid it out, run in the webview's frame: whether any
// label of a row is cut (a value ellipsised or clipped to a stub such as "sh…", "re", "1059–…"), whether
// the column heads stand over their columns, and whether the parts of the editor overlap. Plain ESM.
import { sessionView } from './session-editor.mjs';
import { webviewContentFrame } from './timeline-page.mjs';

/**
 * Runs in the frame. For every drawn row: each cell but the summary (which may end in an ellipsis) shows
 * its whole text inside the row, and each note after the summary is either whole on the row's line or
 * not on it at all. Returns one sentence per problem, and how many rows were looked at.
 */
export function cutLabelsInFrame() {
  const problems = [];
  const rows = [...document.querySelectorAll('#timeline-list .row:not(.placeholder)')];
  const visible = (el) => getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden';
  for (const row of rows) {
    const seq = row.getAttribute('data-seq');
    const box = row.getBoundingClientRect();
    const cells = [...row.querySelectorAll('.cell:not(.summary), .note')].filter((c) => visible(c) && c.textContent.trim());
    for (const cell of cells) {
      const text = cell.textContent.trim();
      const b = cell.getBoundingClientRect();
      // A note moved to the notes' second line is not shown (the line is clipped): that is allowed.
      const clip = cell.closest('.notes')?.getBoundingClientRect() ?? box;
      if (b.top >= clip.bottom - 1) continue;
      if (cell.scrollWidth > cell.clientWidth + 1)
        problems.push(`seq ${seq}: "${text}" is cut to ${cell.clientWidth}px of ${cell.scrollWidth}px`);
      else if (b.right > Math.min(box.right, clip.right) + 1)
        problems.push(`seq ${seq}: "${text}" runs ${Math.round(b.right - Math.min(box.right, clip.right))}px past the row`);
    }
  }
  return { problems, rows: rows.length };
}

/** Runs in the frame: how far (px) each column head is from its column in the first plain row. */
export function headOffsetsInFrame() {
  const head = document.querySelector('.list-head');
  const row = [...document.querySelectorAll('#timeline-list .row:not(.placeholder)')].find((r) => !r.classList.contains('chunk-run'));
  if (!head || !row) return undefined;
  const heads = [...head.children].filter((c) => c.textContent.trim());
  const out = {};
  for (const h of heads) {
    const word = h.textContent.trim();
    const column = ['seq', 'turn', 'time', 'label', 'summary'].find((c) => h.classList.contains(c));
    // Before the heads named their columns they were plain spans in the columns' order.
    const cell = column ? row.querySelector(`:scope > .${column}`) : row.querySelectorAll(':scope > .cell')[heads.indexOf(h)];
    if (!cell || getComputedStyle(cell).display === 'none') continue;
    out[word] = Math.round(h.getBoundingClientRect().left - cell.getBoundingClientRect().left);
  }
  return out;
}

/**
 * Scrolls the list a viewport at a time (from the top, unless `fromTop` is false: from where it is) and
 * collects the cut labels of every row drawn on the way, over at most `steps` viewports.
 */
export async function cutLabelsThroughout(page, { steps = 60, fromTop = true } = {}) {
  const frame = await webviewContentFrame(page);
  const scroller = sessionView(page).locator('#timeline-list virtual-rows');
  const problems = new Set();
  let rows = 0;
  for (let step = 0; step < steps; step++) {
    const atEnd = await scroller.evaluate(
      (el, { first, fromTop }) => {
        if (first) {
          if (fromTop) el.scrollTop = 0;
        } else if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) return true;
        else el.scrollTop += Math.round(el.clientHeight * 0.9);
        return false;
      },
      { first: step === 0, fromTop },
    );
    if (atEnd) break;
    await sessionView(page)
      .locator('#timeline-list .row.placeholder')
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => {});
    await page.waitForTimeout(150);
    const seen = await frame.evaluate(cutLabelsInFrame);
    rows += seen.rows;
    for (const p of seen.problems) problems.add(p);
  }
  return { problems: [...problems], rows };
}

/** Runs in the frame: the boxes of the editor's parts that are drawn, by name. */
export function partBoxesInFrame() {
  const parts = {
    header: '.session-top',
    toolbar: '.toolbar',
    'column heads': '.list-head',
    list: '.list-area',
    'ghost rows': '#ghost-rows',
    'pending rows': '#pending-rows',
    'time panel': '#time-panel',
    'as-of panel': '#asof-panel',
  };
  // What of an element is drawn: its box, cut by every ancestor that clips it (a panel scrolled in its
  // area) — but not by the page itself, so a part pushed off the bottom still counts as outside it.
  const seen = (el) => {
    const b = el.getBoundingClientRect();
    let box = { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflow === 'visible') continue;
      const c = a.getBoundingClientRect();
      box = {
        top: Math.max(box.top, c.top),
        bottom: Math.min(box.bottom, c.bottom),
        left: Math.max(box.left, c.left),
        right: Math.min(box.right, c.right),
      };
    }
    return box;
  };
  const out = {};
  for (const [name, selector] of Object.entries(parts)) {
    const el = document.querySelector(selector);
    if (!el) continue;
    const box = seen(el);
    if (box.bottom - box.top > 0) out[name] = box;
  }
  const rows = document.querySelector('#timeline-list virtual-rows');
  return { parts: out, listHeight: rows?.clientHeight ?? 0, viewportHeight: window.innerHeight };
}

/** Pairs of boxes that overlap by more than a pixel, as "a over b". */
export function overlaps(boxes) {
  const names = Object.keys(boxes);
  const out = [];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++) {
      const a = boxes[names[i]];
      const b = boxes[names[j]];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) out.push(`${names[i]} and ${names[j]} overlap by ${Math.round(y)}px`);
    }
  return out;
}
