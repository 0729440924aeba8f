// Waits until the extension under test has activated: its Sessions view draws either sessions or its
// welcome content, which needs the extension's code (the static contributions show before that). On a
// loaded 2-core machine the extension host can start minutes after the workbench.
export async function showSessionsView(page, timeout = 240_000) {
  const item = page
    .locator('.activitybar .action-item a[aria-label^="dsh Sessions"], .activitybar .action-item a[aria-label^="dsh 会话"]')
    .first();
  await item.waitFor({ timeout });
  if (!(await page.locator('.activitybar .action-item.checked a[aria-label^="dsh "]').count())) await item.click();
}

export async function waitForExtension(page, timeout = 240_000) {
  await showSessionsView(page, timeout);
  const pane = page.locator('.pane-body');
  await pane.locator('.welcome-view-content, .monaco-list-row[aria-level]').first().waitFor({ timeout });
}
