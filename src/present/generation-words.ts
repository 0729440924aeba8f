// What a log's format generation and today's dsh's verdict on it say, in words: which dsh wrote the
// file, and whether the dsh users run today opens it (it migrates older generations) or refuses, at
// which edge, on which line and in dsh's own words.
import { generationRelease, type Diagnostic, type FormatVerdict } from '../core';
import type { Formatter } from './format';
import { quoteDsh } from './verdict';

/** "format v3 (dsh 0.1.5–0.1.6)"; "format v7" for a version no dsh has written. */
export function formatLabel(version: number | null | undefined, fmt: Formatter): string {
  if (version === null || version === undefined) return fmt.t('an unknown format');
  const release = generationRelease(version);
  return release ? fmt.t('format v{0} ({1})', version, release.writers) : fmt.t('format v{0}', version);
}

/** "v3 (dsh 0.1.5–0.1.6)": the format without the word, for a field already labelled Format. */
export function formatValue(version: number | null | undefined, fmt: Formatter): string {
  if (version === null || version === undefined) return fmt.t('unknown');
  const release = generationRelease(version);
  return release ? fmt.t('v{0} ({1})', version, release.writers) : `v${version}`;
}

/** Where a refusal is, for a sentence: "line 3" or "the log". */
function where(verdict: Pick<FormatVerdict, 'line'>, fmt: Formatter): string {
  return verdict.line !== undefined ? fmt.t('line {0}', verdict.line) : fmt.t('the log as a whole');
}

/**
 * Today's dsh's verdict in one sentence (plus dsh's own message, quoted): it opens the file as it is,
 * migrates it, or refuses — at the header, in the container, at a migration edge, or in the checks of
 * the migrated log.
 */
export function upgradeWords(
  verdict: Pick<FormatVerdict, 'ok' | 'stage' | 'targetVersion' | 'edge' | 'line' | 'dshError' | 'reason'>,
  storedVersion: number | null,
  fmt: Formatter,
): { text: string; dshText?: string } {
  const target = verdict.targetVersion;
  if (verdict.ok) {
    return storedVersion === target
      ? { text: fmt.t("Today's dsh opens this log as it is (format v{0} is the one it writes).", target) }
      : { text: fmt.t("Today's dsh opens this log: it migrates it to format v{0} on opening.", target) };
  }
  const message = verdict.dshError ?? verdict.reason;
  const dshText = message ? quoteDsh(message, fmt) : undefined;
  switch (verdict.stage) {
    case 'migrate':
      return {
        text: fmt.t("Today's dsh would refuse to migrate this log: the {0} edge refuses {1}.", verdict.edge ?? '?', where(verdict, fmt)),
        dshText,
      };
    case 'restore':
      return { text: fmt.t("Today's dsh would refuse this log: the migrated log fails its v{0} checks.", target), dshText };
    case 'header':
      return { text: fmt.t("Today's dsh would refuse this log at its header."), dshText };
    default:
      return { text: fmt.t("Today's dsh would refuse this log at its {0} step ({1}).", verdict.stage, where(verdict, fmt)), dshText };
  }
}

/** Today's dsh's verdict in a few words, for a pill beside the log's own verdict. */
export function upgradeLabel(verdict: Pick<FormatVerdict, 'ok' | 'targetVersion'>, storedVersion: number | null, fmt: Formatter): string {
  if (!verdict.ok) return fmt.t("Today's dsh would refuse this log");
  return storedVersion === verdict.targetVersion ? fmt.t("Today's dsh opens this log") : fmt.t("Today's dsh migrates this log");
}

/** dsh's own refusal advises a newer harness ("… written by a newer harness — upgrade the harness to open it"). */
export function advisesNewerHarness(dshError: string | undefined): boolean {
  return dshError !== undefined && /newer harness/.test(dshError);
}

/**
 * What to say instead when an older dsh's refusal advises a newer harness although the log's format is
 * older than today's: today's dsh opens it, or refuses it too (a newer harness would not help).
 */
export function newerHarnessNote(
  upgrade: Pick<FormatVerdict, 'ok' | 'targetVersion'>,
  storedVersion: number | null,
  fmt: Formatter,
): string | undefined {
  if (storedVersion !== null && storedVersion >= upgrade.targetVersion) return undefined;
  const today = generationRelease(upgrade.targetVersion)?.writers ?? `v${upgrade.targetVersion}`;
  return upgrade.ok
    ? fmt.t(
        "No newer harness is needed: this log is {0}, older than today's dsh ({1}), which opens it. The message above is the older dsh's.",
        formatLabel(storedVersion, fmt),
        today,
      )
    : fmt.t(
        "A newer harness would not help: today's dsh ({0}) refuses this log too (see its verdict). The message above is the older dsh's.",
        today,
      );
}

/**
 * Today's dsh's refusal as a diagnostic at its line (the editor lists it with the log's own problems
 * and the Problems panel shows it); undefined when today's dsh opens the log.
 */
export function upgradeDiagnostic(verdict: FormatVerdict, storedVersion: number | null, fmt: Formatter): Diagnostic | undefined {
  if (verdict.ok) return undefined;
  const words = upgradeWords(verdict, storedVersion, fmt);
  const out: Diagnostic = {
    severity: 'warning',
    rule: verdict.stage === 'migrate' && verdict.edge ? `upgrade.${verdict.edge}` : `upgrade.${verdict.stage}`,
    message: words.dshText ? `${words.text} ${words.dshText}` : words.text,
  };
  if (verdict.line !== undefined && verdict.line >= 1) out.line = verdict.line;
  return out;
}
