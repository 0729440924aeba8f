// The inspector: everything about the selected event, readable first (content, arguments, results,
// images by their metadata, usage), then its provenance as links to follow, then the raw line.
import { html, nothing, type TemplateResult } from 'lit';
import type {
  BoundedText,
  ContentBlockView,
  EventDetail,
  LinkRelation,
  ProvenanceLink,
  UsageView,
  WebviewString,
} from '../../../src/protocol';
import { renderChildren, renderStream } from './stream-section';
import { clampBlock, oneLine } from '../safe-text';
import { safeIcon } from './row-view';
import { formatNumber, t } from '../strings';

export interface InspectorHandlers {
  jump(seq: number): void;
  reveal(line: number): void;
  close(): void;
  /** Opens a child session a subagent catalog entry names. */
  openSession(id: string): void;
}

const RELATION_LABEL: Record<LinkRelation, WebviewString> = {
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
  requestHeader: 'Binds to request header',
  toolChange: 'Tools changed by',
  step: 'Step',
  settledBy: 'Settled by',
  attempt: 'Attempt that did not settle',
  offloads: 'Offloads images of',
  offloadedBy: 'Images offloaded by',
};

export function renderInspector(detail: EventDetail | undefined, loading: boolean, on: InspectorHandlers): TemplateResult {
  return html`<section id="inspector" role="region" aria-label=${t('Event inspector')} tabindex="-1">
    ${
      detail
        ? renderDetail(detail, on)
        : loading
          ? html`<p class="muted">${t('Loading…')}</p>`
          : html`<p class="muted">${t('Select an event to see its content, provenance and raw line.')}</p>
              ${renderKeys()}`
    }
  </section>`;
}

/** What the keyboard does in the list, shown while nothing is selected (the list is one tab stop). */
function renderKeys(): TemplateResult {
  const keys: [string, string][] = [
    ['↑ ↓  j k', t('move')],
    ['Enter', t('show the event here')],
    ['→ ←', t('open or close a bracket or a chunk run')],
    ['l', t('follow the next link')],
    ['Alt+← Alt+→', t('back and forward')],
    ['/', t('search the whole log')],
    ['Alt+1 2 3', t('Model view, Full log, Transcript')],
    ['Ctrl+G', t('go to a seq')],
    ['F8 Shift+F8', t('next and previous problem')],
  ];
  return html`<h3 id="keys-heading">${t('Keys in the list')}</h3>
    <dl class="fields keys" aria-labelledby="keys-heading">
      ${keys.map(
        ([k, what]) =>
          html`<dt><kbd>${k}</kbd></dt>
            <dd>${what}</dd>`,
      )}
    </dl>`;
}

function renderDetail(d: EventDetail, on: InspectorHandlers): TemplateResult {
  return html` <header class="inspector-head">
      <span class="codicon codicon-${safeIcon(d.icon)}" aria-hidden="true"></span>
      <h2 id="inspector-title">seq ${d.seq} ${d.type}</h2>
      <vscode-button id="reveal-line" secondary title=${t('Open the log as text at line {0}', d.line)} @click=${() => on.reveal(d.line)}>
        <span class="codicon codicon-go-to-file" aria-hidden="true"></span> ${t('Reveal in Text Editor')}</vscode-button
      >
    </header>
    <dl class="fields inspector-fields">
      <dt>${t('Type')}</dt>
      <dd>${d.label}</dd>
      <dt>${t('Line')}</dt>
      <dd data-field="line">${d.line}</dd>
      ${
        d.timeText
          ? html`<dt>${t('Time')}</dt>
              <dd>${d.timeText}</dd>`
          : nothing
      }
      ${
        d.turn !== undefined
          ? html`<dt>${t('Turn / step')}</dt>
              <dd>${d.turn}${d.step !== undefined ? ` / ${d.step}` : ''}</dd>`
          : nothing
      }
      <dt>${t('Surface')}</dt>
      <dd data-field="surface">${surfaceText(d)}</dd>
      ${
        d.systemHead
          ? html`<dt>${t('System head')}</dt>
              <dd data-field="system-head">
                ${t('The protected system head: the system prompt the model reads first. No compaction or prune can hide it.')}
              </dd>`
          : nothing
      }
      ${
        d.sourceText
          ? html`<dt>${t('Source')}</dt>
              <dd>${oneLine(d.sourceText, 200)}</dd>`
          : nothing
      }
    </dl>
    ${
      d.problems.length
        ? html`<h3>${t('Problems')}</h3>
            <ul class="inspector-problems">
              ${d.problems.map(
                (p) =>
                  html`<li class="sev-${p.severity}">
                    <span class="codicon codicon-${p.severity === 'info' ? 'info' : p.severity}" aria-hidden="true"></span>
                    ${oneLine(p.message, 400)} <code>${p.rule}</code>
                  </li>`,
              )}
            </ul>`
        : nothing
    }
    ${
      d.blocks.length
        ? html`<h3>${t('Content')}</h3>
            <div class="blocks">${d.blocks.map((b, i) => renderBlock(b, i, on, streamedBy(d, i)))}</div>`
        : nothing
    }
    ${d.stream ? renderStream(d.stream, on) : nothing} ${d.children ? renderChildren(d.children, on) : nothing}
    ${
      d.usage
        ? html`<h3>${t('Usage')}</h3>
            ${renderUsage(d.usage)}`
        : nothing
    }
    ${
      d.fields.length
        ? html`<h3>${t('Fields')}</h3>
            <dl class="fields">
              ${d.fields.map(
                (f) =>
                  html`<dt>${oneLine(f.name, 80)}</dt>
                    <dd>${oneLine(f.value, 400)}</dd>`,
              )}
            </dl>`
        : nothing
    }
    <h3>${t('Provenance')}</h3>
    ${
      d.links.length
        ? html`<ul class="links" id="inspector-links">
            ${d.links.map((l) => renderLink(l, on))}
          </ul>`
        : html`<p class="muted">${t('No recorded or inferred links.')}</p>`
    }
    <h3>${t('Raw line {0}', d.line)}</h3>
    ${renderText(d.raw, 'raw')}`;
}

function surfaceText(d: EventDetail): string {
  if (d.surface === 'node') return t('On the surface');
  if (d.surface === 'shadowed') return t('Shadowed by seq {0}', d.shadowedBy ?? '?');
  return t('Log only');
}

/** The positions of the stream records that streamed content block `index` (v2 and on). */
function streamedBy(d: EventDetail, index: number): number[] {
  return d.stream?.records.filter((r) => r.block === index && r.kind !== 'chunk').map((r) => r.position) ?? [];
}

function renderBlock(b: ContentBlockView, index: number, on: InspectorHandlers, records: number[]): TemplateResult {
  return html`<div class="block-wrap" id="content-block-${index}" tabindex="-1" data-block=${index}>
    ${renderBlockBody(b, on)}
    ${
      records.length
        ? html`<a
            href="#"
            class="block-to-stream"
            data-record=${records[0]}
            @click=${(e: Event) => {
              e.preventDefault();
              const root = (e.currentTarget as Element | null)?.closest('#inspector');
              const target = root?.querySelector<HTMLElement>(`#stream-record-${records[0]}`);
              target?.scrollIntoView({ block: 'nearest' });
              target?.focus({ preventScroll: true });
            }}
            >${records.length === 1 ? t('streamed by record {0}', records[0]) : t('streamed by records {0}–{1}', records[0], records[records.length - 1])}</a
          >`
        : nothing
    }
  </div>`;
}

function renderBlockBody(b: ContentBlockView, on: InspectorHandlers): TemplateResult {
  switch (b.kind) {
    case 'text':
      return html`<div class="block text">
        <h4>${t('Text')}</h4>
        ${renderText(b.text)}
      </div>`;
    case 'reasoning':
      return html`<div class="block reasoning">
        <h4>${t('Reasoning')}</h4>
        ${renderText(b.text)}
      </div>`;
    case 'toolCall':
      return html`<div class="block tool-call">
        <h4>${t('Tool call')} <code>${oneLine(b.name, 80)}</code> <span class="muted">${oneLine(b.callId, 80)}</span></h4>
        ${renderText(b.arguments, 'json')}
      </div>`;
    case 'toolResult':
      return html`<div class="block tool-result ${b.isError ? 'is-error' : ''}">
        <h4>
          ${t('Tool result')}
          <span class="muted">${oneLine(b.callId, 80)}</span>${b.isError ? html` <span class="error-text">${t('error')}</span>` : nothing}
        </h4>
        ${renderText(b.content)}
      </div>`;
    case 'image':
      return html`<div class="block image">
        <h4><span class="codicon codicon-file-media" aria-hidden="true"></span> ${t('Image')}</h4>
        <dl class="fields">
          <dt>${t('Media type')}</dt>
          <dd>${oneLine(b.mediaType, 80)}</dd>
          ${
            b.name
              ? html`<dt>${t('Name')}</dt>
                  <dd>${oneLine(b.name, 200)}</dd>`
              : nothing
          }
          ${
            b.width !== undefined
              ? html`<dt>${t('Size')}</dt>
                  <dd>${b.width} × ${b.height ?? '?'}</dd>`
              : nothing
          }
          ${
            b.bytes !== undefined
              ? html`<dt>${t('Bytes')}</dt>
                  <dd>${b.bytes}</dd>`
              : nothing
          }
          ${
            b.offloadedBy !== undefined
              ? html`<dt>${t('Offloaded')}</dt>
                  <dd>
                    <a
                      href="#"
                      class="offloaded-by"
                      data-target=${b.offloadedBy}
                      @click=${(e: Event) => {
                        e.preventDefault();
                        on.jump(b.offloadedBy!);
                      }}
                      >${t('by the image offload at seq {0}', b.offloadedBy)}</a
                    >
                  </dd>`
              : nothing
          }
        </dl>
      </div>`;
    case 'toolChange':
      return html`<div class="block tool-change" data-change=${b.added ? 'addition' : 'removal'}>
        <h4>${b.added ? t('Tool added') : t('Tool removed')} <code>${oneLine(b.toolName, 120)}</code></h4>
      </div>`;
    case 'other':
      return html`<div class="block other">
        <h4>${oneLine(b.blockType, 80)}</h4>
        ${renderText(b.json, 'json')}
      </div>`;
  }
}

/** A bounded block of untrusted text: pre-formatted, as a text node, with a note when it was cut. */
function renderText(text: BoundedText, kind = ''): TemplateResult {
  // A block with no text (a model's reasoning kept only as replay data, an empty result) says so
  // instead of drawing an empty box.
  if (!text.truncated && text.text.trim() === '')
    return html`<p class="muted empty-block">
      ${text.length ? t('Only white space ({0} characters)', formatNumber(text.length)) : t('Empty: no text')}
    </p>`;
  const shown = clampBlock(text.text);
  const cut = text.truncated || shown.omitted > 0;
  return html`<pre class="content ${kind}">${shown.text}</pre>
    ${
      cut
        ? html`<p class="muted clamp-note">
            ${t('Showing {0} of {1} characters. Reveal in Text Editor shows the whole line.', formatNumber(shown.text.length), formatNumber(text.length))}
          </p>`
        : nothing
    }`;
}

function renderUsage(u: UsageView): TemplateResult {
  const cell = (name: WebviewString, v: number | undefined) =>
    v === undefined
      ? nothing
      : html`<dt>${t(name)}</dt>
          <dd>${formatNumber(v)}</dd>`;
  return html`<dl class="fields usage">
    ${cell('Input', u.input)}${cell('Cached input', u.cachedInput)}${cell('Output', u.output)}${cell('Reasoning', u.reasoning)}${cell('Total', u.total)}
  </dl>`;
}

function renderLink(l: ProvenanceLink, on: InspectorHandlers): TemplateResult {
  return html`<li>
    <a
      href="#"
      class="link rel-${l.relation}"
      data-target=${l.target}
      data-relation=${l.relation}
      @click=${(e: Event) => {
        e.preventDefault();
        on.jump(l.target);
      }}
    >
      <span class="rel">${RELATION_LABEL[l.relation] ? t(RELATION_LABEL[l.relation]) : l.relation}</span>
      <span class="target">seq ${l.target} ${l.targetType}</span>
      ${l.how === 'inferred' ? html`<span class="how muted">${t('(inferred)')}</span>` : nothing}
      <span class="summary">${oneLine(l.targetSummary, 140)}</span></a
    >
  </li>`;
}
