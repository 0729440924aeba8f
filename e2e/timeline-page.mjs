// Page object for the timeline in the session editor's webview: what a user sees and does, as
// locators and small actions. Keys go to the webview the way a keyboard user's would (the webview
// frame has focus), never through synthetic DOM calls.
import { sessionView } from './session-editor.mjs';

export const list = (page) => sessionView(page).locator('#timeline-list');
export const rowBySeq = (page, seq) => sessionView(page).locator(`#timeline-list .row[data-seq="${seq}"]`).first();
export const inspector = (page) => sessionView(page).getByRole('region', { name: 'Event inspector' });

/** Waits until the timeline shows rows (the first page arrived and was drawn). */
export async function waitForTimeline(page, timeout = 60_000) {
  await sessionView(page).locator('#timeline-list .row:not(.placeholder)').first().waitFor({ timeout });
}

export async function listTotal(page) {
  return Number(await list(page).getAttribute('data-total'));
}

export async function setOrder(page, order) {
  await sessionView(page).locator(`#order-${order}`).click();
  await sessionView(page).locator(`#timeline-list[data-order="${order}"]`).waitFor();
  await waitForTimeline(page);
  await waitForListAtRest(page);
}

/**
 * Waits until the rows drawn stop changing: after a change of order the list first draws its first
 * window, then scrolls back to the selected (or top) event once the host says where it is.
 */
export async function waitForListAtRest(page, timeout = 10_000) {
  const firstDrawn = () =>
    sessionView(page)
      .locator('#timeline-list')
      .evaluate((el) => {
        const rows = [...el.querySelectorAll('.row')];
        return rows.some((r) => r.classList.contains('placeholder')) ? '' : rows.map((r) => r.getAttribute('data-seq')).join(',');
      });
  const deadline = Date.now() + timeout;
  let last = await firstDrawn();
  for (;;) {
    await page.waitForTimeout(250);
    const now = await firstDrawn();
    if (now && now === last) return;
    if (Date.now() > deadline) throw new Error('the timeline kept redrawing its rows');
    last = now;
  }
}

/** The frame object of the session webview (for evaluate); found by the timeline element it holds. */
export async function webviewContentFrame(page, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        if (await frame.evaluate(() => !!document.querySelector('timeline-app'))) return frame;
      } catch {
        /* a frame that is navigating or cross-origin-blocked */
      }
    }
    if (Date.now() > deadline) throw new Error('no webview frame holds the timeline');
    await page.waitForTimeout(200);
  }
}

/**
 * Scrolls the list as a user drags its scroll bar, a viewport at a time from the top, until the row of
 * `seq` is drawn: the list draws only the rows near its viewport.
 */
export async function revealRow(page, seq, timeout = 20_000) {
  const row = rowBySeq(page, seq);
  const scroller = sessionView(page).locator('#timeline-list virtual-rows');
  const deadline = Date.now() + timeout;
  for (let step = 0; !(await row.count()); step++) {
    if (Date.now() > deadline) throw new Error(`the row of seq ${seq} was never drawn while scrolling the list`);
    const atEnd = await scroller.evaluate((el, fromTop) => {
      if (fromTop) el.scrollTop = 0;
      else if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) return true;
      else el.scrollTop += Math.round(el.clientHeight * 0.8);
      return false;
    }, step === 0);
    if (atEnd) throw new Error(`the list has no row of seq ${seq}`);
    // The rows of a new window arrive from the host a moment after the scroll.
    await sessionView(page)
      .locator('#timeline-list .row.placeholder')
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => {});
  }
  await row.scrollIntoViewIfNeeded();
}

/** Selects an event by seq as a user does: scrolls the list to its row and clicks it. */
export async function selectSeq(page, seq) {
  await revealRow(page, seq);
  const row = rowBySeq(page, seq);
  await row.click();
  await inspector(page)
    .locator('#inspector-title', { hasText: new RegExp(`^seq ${seq} `) })
    .waitFor({ timeout: 15_000 });
}

/** Rows currently drawn, in list order, as {seq, type, surface, messageIndex, index}. */
export async function drawnRows(page) {
  return sessionView(page)
    .locator('#timeline-list .row:not(.placeholder)')
    .evaluateAll((rows) =>
      rows
        .map((r) => ({
          seq: Number(r.getAttribute('data-seq')),
          type: r.getAttribute('data-type'),
          surface: r.getAttribute('data-surface'),
          index: Number(r.getAttribute('data-index')),
          messageIndex: r.hasAttribute('data-message-index') ? Number(r.getAttribute('data-message-index')) : undefined,
          name: r.getAttribute('aria-label'),
        }))
        .sort((a, b) => a.index - b.index),
    );
}

export async function activeRowSeq(page) {
  return sessionView(page)
    .locator('#timeline-list')
    .evaluate((el) => {
      const id = el.getAttribute('aria-activedescendant');
      const row = id ? document.getElementById(id) : null;
      return row ? Number(row.getAttribute('data-seq')) : undefined;
    });
}

export async function focusedId(page) {
  const frame = await webviewContentFrame(page);
  return frame.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return '';
    return a.id || a.getAttribute('aria-label') || a.className || a.tagName;
  });
}
