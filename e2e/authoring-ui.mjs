// Page object for authoring through the UI as a user does it: the commands' quick picks by seq, the
// typed summary, the preview's modal dialog and its buttons, the dirty tab, Save; and the CLI's view of
// the file afterwards.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from './harness.mjs';
import { REPO } from './toolchain.mjs';
import { pickQuickItem, runCommand } from './workbench.mjs';

const CLI = join(REPO, 'bin', 'session-surface.js');

export const quickInput = (page) => page.locator('.quick-input-widget input');
export const dirtyTab = (page, name) => page.locator('.tabs-container .tab.dirty', { hasText: name });
/** The modal dialog a preview asks with, and one of its buttons by its exact label. */
export const dialog = (page) => page.locator('.monaco-dialog-box');
export const dialogButton = (page, label) =>
  page.locator('.monaco-dialog-box .monaco-button', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) });

/** Runs an authoring command until its first quick pick shows (the document may still be loading). */
export async function startCommand(page, title, pickTitle) {
  await until(
    async () => {
      await runCommand(page, title);
      try {
        await page.locator('.quick-input-widget .quick-input-title', { hasText: pickTitle }).waitFor({ timeout: 5_000 });
        return true;
      } catch {
        await page.keyboard.press('Escape');
        return false;
      }
    },
    90_000,
    `${title} offers its first pick`,
  );
}

/** Picks the quick-pick row whose label is exactly `label` (a seq), typing it to bring it into view. */
export async function pickSeq(page, label) {
  await quickInput(page).fill(String(label));
  await page.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}, "]`).first().click();
}

/** Compact Range… from the palette up to its preview dialog (left open for the test to answer). */
export async function compactUpToPreview(page, start, end, summary) {
  await startCommand(page, 'Session Surface: Compact Range…', 'Compact Range (1/3)');
  await pickSeq(page, start);
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range (2/3)' }).waitFor();
  await pickSeq(page, end);
  await pickQuickItem(page, 'Type the summary');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range: summary' }).waitFor();
  await quickInput(page).fill(summary);
  await page.keyboard.press('Enter');
  await dialog(page).waitFor({ timeout: 30_000 });
}

/** Prune Tool Result… of `seq` with the offered new content, up to its preview dialog. */
export async function pruneUpToPreview(page, seq) {
  await startCommand(page, 'Session Surface: Prune Tool Result…', 'Prune Tool Result (1/2)');
  await pickSeq(page, seq);
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Prune Tool Result (2/2)' }).waitFor();
  const content = await quickInput(page).inputValue();
  await page.keyboard.press('Enter');
  await dialog(page).waitFor({ timeout: 30_000 });
  return content;
}

/** Saves the session editor: the preview opens beside it (second group) and takes the focus. */
export async function saveSession(page) {
  await runCommand(page, 'View: Focus First Editor Group');
  await runCommand(page, 'File: Save');
}

/** The seqs of a log's surface nodes, in surface order, as `session-surface surface` lists them. */
export function surfaceSeqs(file) {
  const surface = execFileSync(process.execPath, [CLI, 'surface', file], { encoding: 'utf8' });
  return [...surface.matchAll(/#\d+ seq (\d+)/g)].map((m) => Number(m[1]));
}

/** The surface's tool results with their line in `session-surface surface`. */
export function surfaceToolResults(file) {
  const surface = execFileSync(process.execPath, [CLI, 'surface', file], { encoding: 'utf8' });
  return [...surface.matchAll(/seq (\d+) \(line \d+\) tool\/result/g)].map((m) => Number(m[1]));
}

export function check(file) {
  return spawnSync(process.execPath, [CLI, 'check', file], { encoding: 'utf8' });
}

/** The lines a file gained after `original` (plain text). */
export const appendedLines = (file, original) =>
  readFileSync(file)
    .subarray(original.length)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
