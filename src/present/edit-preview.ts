// What a pending edit would do, in words, before it is applied: the planner's verdict with every reason,
// the exact lines, the shadowed nodes, the derived messages before and after, and estimated tokens.
// Pure (no vscode, no DOM): the editor shows it, tests read it.
import { estimateTokensOfSeqs, type Diagnostic, type PendingEdit, type PendingPlan, type SessionLog } from '../core';
import { clip, messageSummary } from './message-summary';

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
  /** The whole preview as plain text. */
  text: string;
}

/** A short name for an edit ("Compact seqs 3–10", "Prune tool/result seq 7"). */
export function editTitle(edit: PendingEdit): string {
  if (edit.kind === 'prune') return `Prune tool/result seq ${edit.seq}`;
  if (edit.kind === 'repair') return 'Apply crash repair';
  return edit.input.start === edit.input.end ? `Compact seq ${edit.input.start}` : `Compact seqs ${edit.input.start}–${edit.input.end}`;
}

/** One line per event: seq, type and what it says. */
export function eventSummary(log: SessionLog, seq: number): string {
  const event = log.event(seq);
  if (!event) return `seq ${seq} (not in the log)`;
  const data = event.data as Record<string, any> | undefined;
  const message = event.type === 'assistant/message' ? data?.message : event.type === 'user/message' ? data : data?.message;
  const body =
    message && typeof message === 'object' && Array.isArray(message.content)
      ? messageSummary(message)
      : clip(JSON.stringify(data ?? null), 100);
  return `seq ${seq} ${event.type}: ${body}`;
}

function reasonLine(r: Diagnostic): string {
  return `  • ${r.message} [${r.rule}${r.line !== undefined ? `, line ${r.line}` : ''}]`;
}

/**
 * The preview of `edit`, planned (with the edits before it) as `plan`, on `log`; `after` is a copy of
 * the log with the planned events appended (undefined when the plan is refused).
 */
export function previewEdit(log: SessionLog, edit: PendingEdit, plan: PendingPlan, after: SessionLog | undefined): EditPreview {
  const title = editTitle(edit);
  const lastStep = plan.ok ? plan.steps[plan.steps.length - 1] : undefined;
  const lines = lastStep?.plan.lines ?? [];
  const reasons = plan.ok ? [] : plan.reasons;
  const shadowed = edit.kind === 'prune' ? [edit.seq] : edit.kind === 'repair' ? [] : shadowedSpan(log, edit.input.start, edit.input.end);
  const tokensBefore = estimateTokensOfSeqs(log, log.surface());
  const tokensAfter = after ? estimateTokensOfSeqs(after, after.surface()) : undefined;
  const before = log.deriveMessages();
  const afterMessages = after?.deriveMessages();
  const out: string[] = [];
  out.push(`${title} — ${plan.ok ? 'the plan holds' : `refused (${reasons.length} reason${reasons.length === 1 ? '' : 's'})`}`);
  out.push('');
  if (!plan.ok) {
    out.push('Why it cannot be applied:', ...reasons.map(reasonLine), '');
  } else {
    for (const note of lastStep?.plan.notes ?? []) out.push(`Note: ${note.message}`);
    const first = lastStep ? lastStep.plan.events[0].seq : plan.firstSeq;
    out.push(`Lines to append (seqs ${first}–${first + lines.length - 1}), exactly as dsh writes them:`, ...lines.map((l) => `  ${l}`), '');
  }
  out.push(`Shadowed surface nodes (${shadowed.length}):`, ...shadowed.map((s) => `  ${eventSummary(log, s)}`), '');
  out.push(
    `Estimated tokens on the surface (4 bytes per token): ${tokensBefore.toLocaleString('en-US')}${tokensAfter !== undefined ? ` → ${tokensAfter.toLocaleString('en-US')}` : ''}`,
    '',
  );
  out.push(`Derived messages before (${before.length}):`, ...before.map((m, i) => `  ${i + 1}. ${messageSummary(m)}`), '');
  if (afterMessages)
    out.push(`Derived messages after (${afterMessages.length}):`, ...afterMessages.map((m, i) => `  ${i + 1}. ${messageSummary(m)}`), '');
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
    text: out.join('\n'),
  };
}

function shadowedSpan(log: SessionLog, start: number, end: number): number[] {
  const nodes = log.surface();
  const from = nodes.indexOf(start);
  const to = nodes.indexOf(end);
  return from >= 0 && to >= from ? nodes.slice(from, to + 1) : [];
}
