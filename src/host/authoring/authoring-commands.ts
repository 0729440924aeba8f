// "Compact Range…" and "Prune Tool Result…": choose what to edit (arguments from a timeline row's
// context menu, or quick picks by seq), write the summary or new content, see a preview (the plan's
// verdict with every reason, the exact lines, shadowed nodes, derived messages and estimated tokens
// before and after), then apply it as a pending edit of the document. Nothing is written until Save
// (where auto-save would write it, the confirmation says so first: ./auto-save.ts).
import * as vscode from 'vscode';
import { compactionEdit, defaultPrunedContent, pruneEdit, type PendingEdit, type SessionLog } from '../../core';
import { eventBody, pruneSavesNothing, type EditPreview } from '../../present/edit-preview';
import { displayText, hostFormatter } from '../words';
import type { SessionDocument } from '../session-document';
import type { SessionEditorProvider } from '../session-editor-provider';
import { confirmPendingEdit } from './auto-save';
import { restrictedModeExplanation, type DocumentEdits } from './document-edits';

export const AUTHORING_COMMANDS = {
  compactRange: 'sessionSurface.compactRange',
  pruneToolResult: 'sessionSurface.pruneToolResult',
} as const;

const PREVIEW_SCHEME = 'session-surface-preview';

/** Arguments a caller (a timeline row's context menu, a test, a keybinding) may pass. */
interface CompactArgs {
  uri?: string;
  seq?: number;
  start?: number;
  end?: number;
  summary?: string;
}

interface PruneArgs {
  uri?: string;
  seq?: number;
  content?: string;
}

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Read-only preview documents, keyed by path. */
class PreviewDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  async show(name: string, text: string): Promise<void> {
    // The tab shows the path's last segment: a "/" in the name (tool/result) would cut it to its tail.
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name.replace(/\//g, '\u2215')}.txt` });
    this.texts.set(uri.path, text);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }
}

function nodeItem(log: SessionLog, seq: number, extra = ''): vscode.QuickPickItem & { seq: number } {
  return {
    label: `${seq}`,
    description: `${log.eventType(seq)}${extra}`,
    detail: eventBody(log, seq, hostFormatter()) ?? '',
    seq,
  };
}

async function pickSeq(items: (vscode.QuickPickItem & { seq: number })[], title: string, placeHolder: string): Promise<number | undefined> {
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  return picked?.seq;
}

async function summaryText(args: CompactArgs): Promise<string | undefined> {
  if (typeof args.summary === 'string' && args.summary.trim() !== '') return args.summary;
  const selection = vscode.window.visibleTextEditors.map((e) => e.document.getText(e.selection)).find((t) => t.trim() !== '');
  const sources: (vscode.QuickPickItem & { id: string })[] = [
    {
      id: 'type',
      label: `$(edit) ${vscode.l10n.t('Type the summary…')}`,
      detail: vscode.l10n.t('One input line; write \\n for a line break'),
    },
    { id: 'clipboard', label: `$(clippy) ${vscode.l10n.t('From the clipboard')}` },
    ...(selection
      ? [{ id: 'selection', label: `$(selection) ${vscode.l10n.t('From the editor selection')}`, detail: selection.slice(0, 120) }]
      : []),
    { id: 'file', label: `$(file) ${vscode.l10n.t('From a file…')}` },
  ];
  const source = await vscode.window.showQuickPick(sources, {
    title: vscode.l10n.t('Compact Range (3/3): the summary that replaces the range'),
    ignoreFocusOut: true,
  });
  switch (source?.id) {
    case 'type': {
      const typed = await vscode.window.showInputBox({
        title: vscode.l10n.t('Compact Range: summary'),
        prompt: vscode.l10n.t('What the model should remember of the hidden range (\\n for a line break)'),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('The summary cannot be empty') : undefined),
      });
      return typed?.replace(/\\n/g, '\n');
    }
    case 'clipboard': {
      const text = await vscode.env.clipboard.readText();
      if (text.trim() === '') void vscode.window.showWarningMessage(vscode.l10n.t('The clipboard holds no text to use as a summary.'));
      return text.trim() === '' ? undefined : text;
    }
    case 'selection':
      return selection;
    case 'file': {
      const [file] = (await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: vscode.l10n.t('Use as Summary') })) ?? [];
      if (!file) return undefined;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file)).replace(/\r?\n$/, '');
      return text.trim() === '' ? undefined : text;
    }
    default:
      return undefined;
  }
}

/** Shows the preview and asks; true when the user applies the edit. */
async function confirmPreview(previews: PreviewDocuments, document: SessionDocument, preview: EditPreview): Promise<boolean> {
  await previews.show(`${document.fileName} — ${preview.title}`, preview.text);
  const tokens =
    preview.tokensAfter !== undefined
      ? `${preview.tokensBefore.toLocaleString('en-US')} → ${preview.tokensAfter.toLocaleString('en-US')}`
      : preview.tokensBefore.toLocaleString('en-US');
  const messages =
    preview.messagesAfter !== undefined ? `${preview.messagesBefore} → ${preview.messagesAfter}` : `${preview.messagesBefore}`;
  if (!preview.ok) {
    await vscode.window.showErrorMessage(vscode.l10n.t('{0} cannot be applied', preview.title), {
      modal: true,
      detail: preview.reasons.map((r) => `• ${displayText(r)}`).join('\n'),
    });
    return false;
  }
  const summary = planSummary(preview.lines.length, preview.shadowed.length, messages, tokens);
  return confirmPendingEdit({
    message: preview.savesNothing
      ? vscode.l10n.t('{0}: the plan holds, but it saves nothing', preview.title)
      : vscode.l10n.t('{0}: the plan holds', preview.title),
    detail: preview.savesNothing
      ? `${pruneSavesNothing(preview.tokensBefore, preview.tokensAfter ?? preview.tokensBefore, hostFormatter())}\n\n${summary}`
      : summary,
    confirm: vscode.l10n.t('Apply'),
    warning: preview.savesNothing,
  });
}

/** What a plan does, in words: each count in its own form ("1 line", "3 surface nodes"). */
function planSummary(lines: number, shadowed: number, messages: string, tokens: string): string {
  const fmt = hostFormatter();
  return fmt.t(
    '{0}; {1}; derived messages {2}; estimated tokens {3}. The preview beside shows the exact lines.',
    fmt.counted(lines, '{0} line to append on Save', '{0} lines to append on Save'),
    fmt.counted(shadowed, '{0} surface node hidden', '{0} surface nodes hidden'),
    messages,
    tokens,
  );
}

export function registerAuthoringCommands(context: vscode.ExtensionContext, provider: SessionEditorProvider): void {
  const previews = new PreviewDocuments();

  /** The document a command acts on, and its authoring state; undefined (after saying why) when none. */
  const target = (uri: unknown): { document: SessionDocument; edits: DocumentEdits } | undefined => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(restrictedModeExplanation());
      return undefined;
    }
    const document = typeof uri === 'string' ? provider.documents.get(uri) : provider.activeDocument;
    if (!document || !document.editable) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Open a session log in the Session Surface editor (and let it load) to edit it.'),
      );
      return undefined;
    }
    // dsh reads and appends to a session's newest generation only: an older one is history.
    const older = document.summary()?.olderGeneration;
    if (older) {
      void vscode.window.showWarningMessage(older.text);
      return undefined;
    }
    return { document, edits: document.edits };
  };

  const applyAfterPreview = async (document: SessionDocument, edits: DocumentEdits, edit: PendingEdit) => {
    const preview = edits.preview(edit);
    if (await confirmPreview(previews, document, preview)) edits.apply(edit);
  };

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),

    vscode.commands.registerCommand(AUTHORING_COMMANDS.compactRange, async (raw?: CompactArgs) => {
      const args: CompactArgs = raw && typeof raw === 'object' ? raw : {};
      const t = target(args.uri);
      if (!t) return;
      const log = t.edits.logWithPending();
      const nodes = log.surface();
      if (nodes.length === 0) {
        void vscode.window.showWarningMessage(vscode.l10n.t('{0} has nothing on its surface to compact.', t.document.fileName));
        return;
      }
      const balance = log.balancedCuts();
      const cuts = 'error' in balance ? new Set<number>() : new Set(balance.cuts);
      const startArg = isSeq(args.start) ? args.start : isSeq(args.seq) ? args.seq : undefined;
      // The protected system head (v3 and on) is never offered: no compaction may hide it.
      const head = log.protectedHead();
      const start =
        startArg ??
        (await pickSeq(
          nodes
            .map((s, i) =>
              nodeItem(log, s, cuts.has(i) ? '' : ` — ${vscode.l10n.t('cutting before it splits a tool call from its result')}`),
            )
            .filter((item) => item.seq !== head),
          head === undefined
            ? vscode.l10n.t('Compact Range (1/3): the first surface node to hide')
            : vscode.l10n.t(
                'Compact Range (1/3): the first surface node to hide (seq {0}, the protected system head, cannot be hidden)',
                head,
              ),
          vscode.l10n.t('Type a seq or words of the message'),
        ));
      if (start === undefined) return;
      const from = nodes.indexOf(start);
      const end = isSeq(args.end)
        ? args.end
        : await pickSeq(
            (from >= 0 ? nodes.slice(from) : nodes).map((s) =>
              nodeItem(
                log,
                s,
                cuts.has(nodes.indexOf(s) + 1) ? '' : ` — ${vscode.l10n.t('cutting after it splits a tool call from its result')}`,
              ),
            ),
            vscode.l10n.t('Compact Range (2/3): the last surface node to hide (from seq {0})', start),
            vscode.l10n.t('Type a seq or words of the message'),
          );
      if (end === undefined) return;
      const summary = await summaryText(args);
      if (summary === undefined) return;
      const edit = compactionEdit(log, {
        start,
        end,
        summaryText: summary,
        compactionId: `manual-${globalThis.crypto.randomUUID()}`,
        messageId: globalThis.crypto.randomUUID(),
        time: Date.now(),
      });
      await applyAfterPreview(t.document, t.edits, edit);
    }),

    vscode.commands.registerCommand(AUTHORING_COMMANDS.pruneToolResult, async (raw?: PruneArgs) => {
      const args: PruneArgs = raw && typeof raw === 'object' ? raw : {};
      const t = target(args.uri);
      if (!t) return;
      const log = t.edits.logWithPending();
      const results = log.surface().filter((s) => log.eventType(s) === 'tool/result');
      if (results.length === 0 && !isSeq(args.seq)) {
        void vscode.window.showWarningMessage(vscode.l10n.t('{0} has no tool result on its surface to prune.', t.document.fileName));
        return;
      }
      const seq = isSeq(args.seq)
        ? args.seq
        : await pickSeq(
            results.map((s) =>
              nodeItem(log, s, ` — ${(defaultPrunedContent(log, s)[0] as { text: string }).text.replace(/^\[pruned: (.*)\]$/, '$1')}`),
            ),
            vscode.l10n.t('Prune Tool Result (1/2): the tool result to shrink'),
            vscode.l10n.t('Type a seq or words of the result'),
          );
      if (seq === undefined) return;
      const fallback = log.eventType(seq) === 'tool/result' ? (defaultPrunedContent(log, seq)[0] as { text: string }).text : '[pruned]';
      const content =
        typeof args.content === 'string'
          ? args.content
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Prune Tool Result (2/2): the new content'),
              prompt: vscode.l10n.t('Every other field of the result is kept'),
              value: fallback,
              ignoreFocusOut: true,
            });
      if (content === undefined) return;
      await applyAfterPreview(t.document, t.edits, pruneEdit(log, { seq, text: content, time: Date.now() }));
    }),
  );
}
