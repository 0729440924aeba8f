// In a workspace that is not trusted (Restricted Mode) the extension still runs — it declares
// limited support — and the session editor says that it is read-only.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SAMPLES, startSuite } from '../harness.mjs';
import { openViaCommand, readSessionView, waitForHeader } from '../session-editor.mjs';

let suite;
let page;
before(async () => {
  suite = await startSuite('restricted-mode', { trusted: false, files: [join(SAMPLES, 'session-small.jsonl')] });
  ({ page } = await suite.openPage());
});
after(async () => { await suite?.stop(); });
afterEach(async (t) => { if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {}); });

test('an untrusted workspace opens the session read-only and says so', { timeout: 120_000 }, async () => {
  await page.getByText('Restricted Mode', { exact: false }).first().waitFor({ timeout: 30_000 });
  await openViaCommand(page, join(suite.workspace, 'session-small.jsonl'));
  await waitForHeader(page);
  const shown = await readSessionView(page);
  await suite.shot(page, 'restricted-read-only');
  assert.equal(shown.id, 'sample-small-0001');
  assert.match(shown.readOnly ?? '', /Restricted Mode: read-only/);
});
