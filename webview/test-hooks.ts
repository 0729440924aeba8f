// Marks the end-to-end tests and the webview benchmark read: when the load's summary arrived and when
// the first rows were painted (globals and body attributes), how often load progress was drawn, and a
// `rendered` message to the host. They exist only in test builds: the build defines
// SESSION_SURFACE_TEST_HOOKS (scripts/build.mjs --test-hooks, bench/webview-harness.mjs turn it on; the
// packaged build sets it false, and the minifier drops every hook).
import type { RenderedMessage, SessionSummary } from '../src/protocol';

declare const SESSION_SURFACE_TEST_HOOKS: boolean | undefined;

declare global {
  interface Window {
    __timelineLoadDone?: number;
    __timelineFirstRows?: number;
  }
}

export const TEST_HOOKS = typeof SESSION_SURFACE_TEST_HOOKS !== 'undefined' && SESSION_SURFACE_TEST_HOOKS === true;

/** A load's summary arrived. */
export function markLoadDone(): void {
  if (TEST_HOOKS) window.__timelineLoadDone = performance.now();
}

/** The first rows of the list are painted (in the frame after they were drawn). */
export function markFirstRowsPainted(): void {
  if (!TEST_HOOKS) return;
  requestAnimationFrame(() => {
    window.__timelineFirstRows = performance.now();
    document.body.dataset.firstRowsPainted = 'true';
  });
}

/** Load progress was drawn once more. */
export function countProgressDrawn(): void {
  if (TEST_HOOKS) document.body.dataset.progressDrawn = String(Number(document.body.dataset.progressDrawn ?? '0') + 1);
}

/** Tells the host (in test mode it records it) that the summary was drawn. */
export function reportRendered(send: (message: RenderedMessage) => void, summary: SessionSummary): void {
  if (!TEST_HOOKS) return;
  requestAnimationFrame(() => send({ type: 'rendered', events: summary.counts.events, hasHeader: !!summary.headerFields }));
}
