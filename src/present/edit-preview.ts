// What a pending edit would do, in words, before it is applied: the planner's verdict with every reason,
// the exact lines, the shadowed nodes, the derived messages before and after, and estimated tokens.
// Pure (no vscode, no DOM): the editor shows it, tests read it.
import { estimateTokensOfSeqs, messageOf, type Diagnostic, type PendingEdit, type PendingPlan, type SessionLog } from '../core';
import type { Formatter } from './format';
import { clip, messageSummary } from './message-summary';
import { coreText } from './core-words';

export interface EditPreview {
  title: string;
  ok: boolean;
  /** Every reason the plan is refused (empty when it holds). */
  reasons: Diagnostic[];
  lines: string[];
  shadowed: number[];
  tokensBefore: number;
  tokensAfter?: number;
  messagesBefore: number;
  messagesAfter?: number;
  /**
   * A prune whose new content is no smaller than the result it replaces (the default "[pruned: 6 B]"
   * for a 6-byte result): it holds, but the surface does not get smaller, and the preview says so.
   */
  savesNothing: boolean;
  /** The whole preview as plain text. */
  text: string;
}

/** A short name for an edit ("Compact seqs 3–10", "Prune tool/result seq 7"). */
export function editTitle(edit: PendingEdit, fmt: Formatter): string {
  if (edit.kind === 'prune') return fmt.t('Prune tool/result seq {0}', edit.seq);
  if (edit.kind === 'repair') return fmt.t('Apply crash repair');
  if (edit.kind === 'close-compaction') return fmt.t('Close interrupted compaction');
  return edit.input.start === edit.input.end
    ? fmt.t('Compact seq {0}', edit.input.start)
    : fmt.t('Compact seqs {0}–{1}', edit.input.start, edit.input.end);
}

function bodyOf(event: { type: string; data?: unknown }, fmt: Formatter): string {
  const message = messageOf(event);
  return message && Array.isArray(message.content) ? messageSummary(message, fmt) : clip(JSON.stringify(event.data ?? null), 100);
}

/** What an event says, in one line (its message, or its data); undefined when the seq is not in the log. */
export function eventBody(log: SessionLog, seq: number, fmt: Formatter): string | undefined {
  const event = log.event(seq);
  return event ? bodyOf(event, fmt) : undefined;
}

/** One line per event: seq, type and what it says. */
export function eventSummary(log: SessionLog, seq: number, fmt: Formatter): string {
  const event = log.event(seq);
  return event ? `seq ${seq} ${event.type}: ${bodyOf(event, fmt)}` : fmt.t('seq {0} (not in the log)', seq);
}

function reasonLine(r: Diagnostic, fmt: Formatter): string {
  const message = coreText(r, fmt);
  const text = r.line !== undefined ? fmt.t('{0} [{1}, line {2}]', message, r.rule, r.line) : `${message} [${r.rule}]`;
  return `  • ${text}`;
}

/**
 * The preview of `edit`, planned (with the edits before it) as `plan`, on `log`; `after` is a copy of
 * the log with the planned events appended (undefined when the plan is refused).
 */
export function previewEdit(
  log: SessionLog,
  edit: PendingEdit,
  plan: PendingPlan,
  after: SessionLog | undefined,
  fmt: Formatter,
): EditPreview {
  const title = editTitle(edit, fmt);
  const lastStep = plan.ok ? plan.steps[plan.steps.length - 1] : undefined;
  const lines = lastStep?.plan.lines ?? [];
  const reasons = plan.ok ? [] : plan.reasons;
  const shadowed =
    edit.kind === 'prune' ? [edit.seq] : edit.kind === 'compaction' ? shadowedSpan(log, edit.input.start, edit.input.end) : [];
  const tokensBefore = estimateTokensOfSeqs(log, log.surface());
  const tokensAfter = after ? estimateTokensOfSeqs(after, after.surface()) : undefined;
  const before = log.deriveMessages();
  const afterMessages = after?.deriveMessages();
  const savesNothing = edit.kind === 'prune' && tokensAfter !== undefined && tokensAfter >= tokensBefore;
  const out: string[] = [];
  out.push(
    !plan.ok
      ? fmt.counted(reasons.length, '{1} — refused ({0} reason)', '{1} — refused ({0} reasons)', title)
      : savesNothing
        ? fmt.t('{0} — the plan holds, but it saves nothing', title)
        : fmt.t('{0} — the plan holds', title),
  );
  if (savesNothing) out.push(pruneSavesNothing(tokensBefore, tokensAfter, fmt));
  out.push('');
  if (!plan.ok) {
    out.push(fmt.t('Why it cannot be applied:'), ...reasons.map((r) => reasonLine(r, fmt)), '');
  } else {
    for (const note of lastStep?.plan.notes ?? []) out.push(fmt.t('Note: {0}', coreText(note, fmt)));
    const first = lastStep ? lastStep.plan.events[0].seq : plan.firstSeq;
    out.push(
      fmt.t('Lines to append (seqs {0}–{1}), exactly as dsh writes them:', first, first + lines.length - 1),
      ...lines.map((l) => `  ${l}`),
      '',
    );
  }
  out.push(fmt.t('Shadowed surface nodes ({0}):', shadowed.length), ...shadowed.map((s) => `  ${eventSummary(log, s, fmt)}`), '');
  out.push(
    tokensAfter === undefined
      ? fmt.t('Estimated tokens on the surface (4 bytes per token): {0}', fmt.count(tokensBefore))
      : fmt.t('Estimated tokens on the surface (4 bytes per token): {0} → {1}', fmt.count(tokensBefore), fmt.count(tokensAfter)),
    '',
  );
  const numbered = (m: unknown, i: number) => `  ${i + 1}. ${messageSummary(m, fmt)}`;
  out.push(fmt.t('Derived messages before ({0}):', before.length), ...before.map(numbered), '');
  if (afterMessages) out.push(fmt.t('Derived messages after ({0}):', afterMessages.length), ...afterMessages.map(numbered), '');
  return {
    title,
    ok: plan.ok,
    reasons,
    lines,
    shadowed,
    tokensBefore,
    tokensAfter,
    messagesBefore: before.length,
    messagesAfter: afterMessages?.length,
    savesNothing,
    text: out.join('\n'),
  };
}

/** Why a prune that holds is still not worth applying, in one sentence. */
export function pruneSavesNothing(tokensBefore: number, tokensAfter: number, fmt: Formatter): string {
  return fmt.t(
    'The new content is not smaller than the tool result it replaces: estimated tokens on the surface {0} → {1}. Apply it only to replace the result for another reason.',
    fmt.count(tokensBefore),
    fmt.count(tokensAfter),
  );
}

function shadowedSpan(log: SessionLog, start: number, end: number): number[] {
  const nodes = log.surface();
  const from = nodes.indexOf(start);
  const to = nodes.indexOf(end);
  return from >= 0 && to >= from ? nodes.slice(from, to + 1) : [];
}
