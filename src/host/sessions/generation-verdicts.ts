// What today's dsh does with the older generations of a session (`session.jsonl` beside
// `session.v4.jsonl.zstd`): they are history dsh keeps untouched, and the Sessions view says of each
// whether today's dsh would migrate it and, if not, at which edge and in dsh's words. Reading a
// generation means reading its whole file, so it is done when the view asks, once per file state.
import * as vscode from 'vscode';
import { loadSessionFileAsync } from '../../core';
import { formatLabel, upgradeWords } from '../../present';
import { readWholeFile, statFile } from '../file-access';
import { hostPlatform } from '../platform';
import { readLimits } from '../settings';
import { hostFormatter } from '../words';

export interface GenerationVerdict {
  /** "format v0 (dsh 0.1.0–0.1.2)". */
  format: string;
  /** True when today's dsh would migrate (or open) the file. */
  ok: boolean;
  /** A few words for the row: "today's dsh migrates it" or why it would not. */
  short: string;
  /** Today's dsh's verdict in a sentence, and dsh's own message when it refuses. */
  text: string;
  dshText?: string;
}

export class GenerationVerdicts implements vscode.Disposable {
  private readonly known = new Map<string, { key: string; verdict?: GenerationVerdict; reading?: Promise<void> }>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires with a file whose verdict was read. */
  readonly onDidRead = this.changed.event;

  /** The verdict of the file as last read, or undefined while (and until) it is read; asks for it. */
  verdict(uri: vscode.Uri, size: number, mtimeMs: number): GenerationVerdict | undefined {
    const id = uri.toString();
    const key = `${size}:${mtimeMs}`;
    const entry = this.known.get(id);
    if (entry?.key === key) return entry.verdict;
    const fresh: { key: string; verdict?: GenerationVerdict; reading?: Promise<void> } = { key };
    this.known.set(id, fresh);
    fresh.reading = this.read(uri).then((verdict) => {
      if (this.known.get(id) !== fresh) return;
      fresh.verdict = verdict;
      this.changed.fire(uri);
    });
    return undefined;
  }

  private async read(uri: vscode.Uri): Promise<GenerationVerdict> {
    const fmt = hostFormatter();
    try {
      if (!(await statFile(uri))) throw new Error(vscode.l10n.t('the file is gone'));
      const bytes = await readWholeFile(uri);
      const source = await loadSessionFileAsync(bytes, {
        fileName: uri.path.slice(uri.path.lastIndexOf('/') + 1),
        zstdCodec: hostPlatform().zstdCodec,
        utf8Slicer: hostPlatform().utf8Slicer,
        limits: readLimits(),
      });
      const log = source.log;
      const version = log.format.version;
      const verdict = log.upgradeRead({ digest: false }).verdict;
      const words = upgradeWords(verdict, version, fmt);
      const short = verdict.ok
        ? version === verdict.targetVersion
          ? vscode.l10n.t("today's dsh opens it as it is")
          : vscode.l10n.t("today's dsh migrates it")
        : verdict.stage === 'migrate' && verdict.edge
          ? vscode.l10n.t("today's dsh would refuse to migrate it ({0})", verdict.edge)
          : vscode.l10n.t("today's dsh would refuse it ({0} step)", verdict.stage);
      return {
        format: formatLabel(version, fmt),
        ok: verdict.ok,
        short,
        text: words.text,
        ...(words.dshText ? { dshText: words.dshText } : {}),
      };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { format: formatLabel(undefined, fmt), ok: false, short: vscode.l10n.t('could not be read'), text: why };
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.known.clear();
  }
}
