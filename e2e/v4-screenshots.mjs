// The README's pictures of a session of today's dsh (format v4): the generated v4 fork open in the
// session editor in a real VS Code (code-server), in the light, dark and high-contrast themes, with an
// assistant message selected so the inspector shows its stream. Run again to retake them:
//   node e2e/v4-screenshots.mjs        (writes docs/timeline-v4-light.png, -dark.png, -high-contrast.png)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite } from './harness.mjs';
import { REPO } from './toolchain.mjs';
import { openViaCommand } from './session-editor.mjs';
import { selectSeq, setOrder, waitForTimeline } from './timeline-page.mjs';
import { generatedV4 } from './generation-samples.mjs';

const THEMES = [
  ['light', 'Default Light Modern'],
  ['dark', 'Default Dark Modern'],
  ['high-contrast', 'Default High Contrast'],
];

const { text, generator } = generatedV4();
const made = mkdtempSync(join(tmpdir(), 'v4-screenshots-'));
const file = join(made, 'session.v4.jsonl');
writeFileSync(file, text);
// An answer of the child's own (after its seed) that streamed reasoning and a tool call.
const message = text
  .split('\n')
  .filter(Boolean)
  .slice(1)
  .map((l) => JSON.parse(l))
  .find((e) => e.type === 'assistant/message' && e.seq > generator.inheritedEventCount + 10 && e.data.message.content.length > 1).seq;

for (const [name, theme] of THEMES) {
  const suite = await startSuite(`v4-screenshots-${name}`, { files: [file], aged: true, settings: { 'workbench.colorTheme': theme } });
  try {
    const { page } = await suite.openPage();
    await openViaCommand(page, join(suite.workspace, 'session.v4.jsonl'));
    await waitForTimeline(page, 180_000);
    await setOrder(page, 'log');
    await selectSeq(page, message);
    await page.waitForTimeout(1_000);
    const out = join(REPO, 'docs', `timeline-v4-${name}.png`);
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await suite.stop();
  }
}
