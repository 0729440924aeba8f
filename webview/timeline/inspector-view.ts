// The inspector: everything about the selected event, readable first (content, arguments, results,
// images by their metadata, usage), then its provenance as links to follow, then the raw line.
import { html, nothing, type TemplateResult } from 'lit';
import type { BoundedText, ContentBlockView, EventDetail, LinkRelation, ProvenanceLink, UsageView } from '../../src/protocol/timeline';
import { clampBlock, oneLine } from './safe-text';
import { safeIcon } from './row-view';

export interface InspectorHandlers {
  jump(seq: number): void;
  reveal(line: number): void;
  close(): void;
}

const RELATION_LABEL: Record<LinkRelation, string> = {
  chunk: 'Streamed from chunk',
  message: 'Part of message',
  requestedBy: 'Requested by',
  call: 'Tool call',
  result: 'Answered by result',
  answers: 'Answers call',
  shadowed: 'Shadows',
  shadowedBy: 'Shadowed by',
  source: 'Source',
  derived: 'Derived event',
};

export function renderInspector(detail: EventDetail | undefined, loading: boolean, on: InspectorHandlers): TemplateResult {
  return html`<section id="inspector" role="region" aria-label="Event inspector" tabindex="-1">
    ${detail ? renderDetail(detail, on) : html`<p class="muted">${loading ? 'Loading…' : 'Select an event to see its content, provenance and raw line.'}</p>`}
  </section>`;
}

function renderDetail(d: EventDetail, on: InspectorHandlers): TemplateResult {
  return html`
    <header class="inspector-head">
      <span class="codicon codicon-${safeIcon(d.icon)}" aria-hidden="true"></span>
      <h2 id="inspector-title">seq ${d.seq} ${d.type}</h2>
      <vscode-button id="reveal-line" secondary title="Open the log as text at line ${d.line}" @click=${() => on.reveal(d.line)}>
        <span class="codicon codicon-go-to-file" aria-hidden="true"></span> Reveal in Text Editor</vscode-button>
    </header>
    <dl class="fields inspector-fields">
      <dt>Type</dt><dd>${d.label}</dd>
      <dt>Line</dt><dd data-field="line">${d.line}</dd>
      ${d.timeText ? html`<dt>Time</dt><dd>${d.timeText}</dd>` : nothing}
      ${d.turn !== undefined ? html`<dt>Turn / step</dt><dd>${d.turn}${d.step !== undefined ? ` / ${d.step}` : ''}</dd>` : nothing}
      <dt>Surface</dt><dd data-field="surface">${surfaceText(d)}</dd>
      ${d.sourceText ? html`<dt>Source</dt><dd>${oneLine(d.sourceText, 200)}</dd>` : nothing}
    </dl>
    ${d.problems.length ? html`<h3>Problems</h3><ul class="inspector-problems">${d.problems.map((p) => html`<li class="sev-${p.severity}">
      <span class="codicon codicon-${p.severity === 'info' ? 'info' : p.severity}" aria-hidden="true"></span>
      ${oneLine(p.message, 400)} <code>${p.rule}</code></li>`)}</ul>` : nothing}
    ${d.blocks.length ? html`<h3>Content</h3><div class="blocks">${d.blocks.map(renderBlock)}</div>` : nothing}
    ${d.usage ? html`<h3>Usage</h3>${renderUsage(d.usage)}` : nothing}
    ${d.fields.length ? html`<h3>Fields</h3><dl class="fields">${d.fields.map((f) => html`<dt>${oneLine(f.name, 80)}</dt><dd>${oneLine(f.value, 400)}</dd>`)}</dl>` : nothing}
    <h3>Provenance</h3>
    ${d.links.length ? html`<ul class="links" id="inspector-links">${d.links.map((l) => renderLink(l, on))}</ul>`
      : html`<p class="muted">No recorded or inferred links.</p>`}
    <h3>Raw line ${d.line}</h3>
    ${renderText(d.raw, 'raw')}`;
}

function surfaceText(d: EventDetail): string {
  if (d.surface === 'node') return 'On the surface';
  if (d.surface === 'shadowed') return `Shadowed by seq ${d.shadowedBy ?? '?'}`;
  return 'Log only';
}

function renderBlock(b: ContentBlockView): TemplateResult {
  switch (b.kind) {
    case 'text': return html`<div class="block text"><h4>Text</h4>${renderText(b.text)}</div>`;
    case 'reasoning': return html`<div class="block reasoning"><h4>Reasoning</h4>${renderText(b.text)}</div>`;
    case 'toolCall': return html`<div class="block tool-call"><h4>Tool call <code>${oneLine(b.name, 80)}</code> <span class="muted">${oneLine(b.callId, 80)}</span></h4>${renderText(b.arguments, 'json')}</div>`;
    case 'toolResult': return html`<div class="block tool-result ${b.isError ? 'is-error' : ''}"><h4>Tool result <span class="muted">${oneLine(b.callId, 80)}</span>${b.isError ? html` <span class="error-text">error</span>` : nothing}</h4>${renderText(b.content)}</div>`;
    case 'image': return html`<div class="block image"><h4><span class="codicon codicon-file-media" aria-hidden="true"></span> Image</h4>
      <dl class="fields"><dt>Media type</dt><dd>${oneLine(b.mediaType, 80)}</dd>
      ${b.name ? html`<dt>Name</dt><dd>${oneLine(b.name, 200)}</dd>` : nothing}
      ${b.width !== undefined ? html`<dt>Size</dt><dd>${b.width} × ${b.height ?? '?'}</dd>` : nothing}
      ${b.bytes !== undefined ? html`<dt>Bytes</dt><dd>${b.bytes}</dd>` : nothing}</dl></div>`;
    case 'other': return html`<div class="block other"><h4>${oneLine(b.blockType, 80)}</h4>${renderText(b.json, 'json')}</div>`;
  }
}

/** A bounded block of untrusted text: pre-formatted, as a text node, with a note when it was cut. */
function renderText(t: BoundedText, kind = ''): TemplateResult {
  const shown = clampBlock(t.text);
  const cut = t.truncated || shown.omitted > 0;
  return html`<pre class="content ${kind}">${shown.text}</pre>${cut
    ? html`<p class="muted clamp-note">Showing ${shown.text.length.toLocaleString()} of ${t.length.toLocaleString()} characters. Reveal in Text Editor shows the whole line.</p>`
    : nothing}`;
}

function renderUsage(u: UsageView): TemplateResult {
  const cell = (label: string, v: number | undefined) => (v === undefined ? nothing : html`<dt>${label}</dt><dd>${v.toLocaleString()}</dd>`);
  return html`<dl class="fields usage">${cell('Input', u.input)}${cell('Cached input', u.cachedInput)}${cell('Output', u.output)}${cell('Reasoning', u.reasoning)}${cell('Total', u.total)}</dl>`;
}

function renderLink(l: ProvenanceLink, on: InspectorHandlers): TemplateResult {
  return html`<li><a href="#" class="link rel-${l.relation}" data-target=${l.target} data-relation=${l.relation}
      @click=${(e: Event) => { e.preventDefault(); on.jump(l.target); }}>
    <span class="rel">${RELATION_LABEL[l.relation] ?? l.relation}</span>
    <span class="target">seq ${l.target} ${l.targetType}</span>
    <span class="summary">${oneLine(l.targetSummary, 140)}</span>
    ${l.how === 'inferred' ? html`<span class="muted">(inferred)</span>` : nothing}</a></li>`;
}
