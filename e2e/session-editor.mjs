// Page object for the session editor as a user reaches it: through the "Open Session…" command with
// its file picker, or by opening the file as text and choosing "Reopen Editor With…".
import { answerFileDialog, pickQuickItem, quickOpen, runCommand, webviewFrame } from './workbench.mjs';

export const OPEN_SESSION = 'Session Surface: Open Session…';
export const EDITOR_LABEL = 'Session Surface';

export async function openViaCommand(page, absolutePath) {
  await runCommand(page, OPEN_SESSION);
  await answerFileDialog(page, absolutePath);
}

export async function openViaReopenWith(page, fileName) {
  await quickOpen(page, fileName);
  await runCommand(page, 'View: Reopen Editor With...');
  await pickQuickItem(page, EDITOR_LABEL);
}

/** The session webview's frame; `waitFor` the header to be drawn. */
export function sessionView(page) {
  return webviewFrame(page);
}

export async function waitForHeader(page, timeout = 60_000) {
  await sessionView(page).locator('#session-id').waitFor({ timeout });
}

const field = (view, list, key) => view.locator(`#${list} [data-field="${key}"]`);

/** What the editor shows, as text, for assertions. */
export async function readSessionView(page) {
  const view = sessionView(page);
  const text = async (locator) => ((await locator.count()) ? (await locator.first().textContent())?.trim() : undefined);
  return {
    id: await text(view.locator('#session-id')),
    events: Number((await text(field(view, 'count-fields', 'events')))?.replace(/,/g, '')),
    verdictOk: (await view.locator('#verdict').getAttribute('data-ok')) === 'true',
    refusingRule: await text(field(view, 'refusal', 'rule')),
    refusingLine: await text(field(view, 'refusal', 'line')),
    stillReadable: await text(view.locator('#still-readable')),
    live: await text(view.locator('#live-status')),
    readOnly: await text(view.locator('#read-only')),
    notice: await text(view.locator('#file-notice')),
  };
}

/** Waits until the editor shows exactly `n` events; returns how long that took. */
export async function waitForEventCount(page, n, timeout) {
  const started = Date.now();
  await sessionView(page)
    .locator(`#count-fields [data-field="events"]`, { hasText: new RegExp(`^${n.toLocaleString('en-US')}$`) })
    .waitFor({ timeout });
  return Date.now() - started;
}
