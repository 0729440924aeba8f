// The inspector's stream section (v2 and on): the records of the stream inside an assistant message or
// a model attempt, each with its time, what it is and the content block it streamed. A record links to
// its block above and a block's records are marked when it is followed, so the message and its stream
// lead to each other; records whose pieces do not spell the message's block are marked as mismatched.
// Also the child sessions a subagent catalog entry names, each a link that opens it.
import { html, nothing, type TemplateResult } from 'lit';
import type { ChildSessionView, StreamRecordView, StreamView } from '../../../src/protocol';
import { clampBlock, oneLine } from '../safe-text';
import { formatNumber, t } from '../strings';

export interface StreamHandlers {
  openSession(id: string): void;
}

/** Scrolls the inspector to an element of its own (a content block, a stream record) and marks it a moment. */
function goTo(event: Event, id: string): void {
  event.preventDefault();
  const root = (event.currentTarget as Element | null)?.closest('#inspector');
  const target = root?.querySelector<HTMLElement>(`#${id}`);
  if (!target) return;
  target.scrollIntoView({ block: 'nearest' });
  target.classList.add('flash');
  setTimeout(() => target.classList.remove('flash'), 1200);
  target.focus({ preventScroll: true });
}

const KIND_WORD = {
  text: 'text',
  reasoning: 'reasoning',
  toolCall: 'tool call',
  chunk: 'chunk',
} as const;

export function renderStream(s: StreamView, _on: StreamHandlers): TemplateResult {
  const blocks = [...new Set(s.records.filter((r) => r.block !== undefined && r.kind !== 'chunk').map((r) => r.block!))];
  const total = s.records.length + s.omitted;
  return html`<h3 id="stream-heading">${total === 1 ? t('Stream (1 record)') : t('Stream ({0} records)', formatNumber(total))}</h3>
    <p class="muted stream-facts">
      ${s.firstTokenText ? html`<span data-field="first-token">${t('time to first token {0}', s.firstTokenText)}</span>` : nothing}
      ${s.decodingText ? html`<span data-field="decoding">${t('decoding {0}', s.decodingText)}</span>` : nothing}
      ${blocks.map(
        (b) =>
          html`<a href="#" class="stream-block-link" data-block=${b} @click=${(e: Event) => goTo(e, `content-block-${b}`)}
            >${t('block {0} in the message', b)}</a
          >`,
      )}
    </p>
    ${
      s.mismatches.length
        ? html`<ul class="stream-mismatches" id="stream-mismatches">
            ${s.mismatches.map(
              (m) =>
                html`<li class="sev-warning">
                  <span class="codicon codicon-warning" aria-hidden="true"></span> ${t('Reassembly mismatch')}: ${oneLine(m.message, 300)}
                </li>`,
            )}
          </ul>`
        : nothing
    }
    <ol class="stream-records" id="stream-records" aria-labelledby="stream-heading">
      ${s.records.map(renderRecord)}
    </ol>
    ${s.omitted ? html`<p class="muted">${t('{0} more not listed', s.omitted)}</p>` : nothing}`;
}

function renderRecord(r: StreamRecordView): TemplateResult {
  return html`<li
    class="stream-record kind-${r.kind} ${r.mismatch ? 'mismatch' : ''}"
    id="stream-record-${r.position}"
    tabindex="-1"
    data-position=${r.position}
    data-kind=${r.kind}
    data-block=${r.block ?? nothing}
    data-mismatch=${r.mismatch ? 'true' : nothing}
  >
    <span class="stream-time">${r.offsetText ?? ''}</span>
    <span class="stream-what">${r.kind === 'chunk' ? oneLine(r.what, 120) : t(KIND_WORD[r.kind])}</span>
    ${r.pieces !== undefined ? html`<span class="muted">${t('{0} pieces over {1}', formatNumber(r.pieces), r.spanText ?? '')}</span>` : nothing}
    ${r.name ? html`<code>${oneLine(r.name, 80)}</code>` : nothing}
    ${
      r.block !== undefined
        ? html`<a href="#" class="stream-to-block" data-block=${r.block} @click=${(e: Event) => goTo(e, `content-block-${r.block}`)}
            >${t('→ block {0}', r.block)}</a
          >`
        : nothing
    }
    ${r.mismatch ? html`<span class="error-text">${t('mismatch')}</span>` : nothing}
    ${r.text ? html`<pre class="content stream-text">${clampBlock(r.text.text).text}</pre>` : nothing}
  </li>`;
}

export function renderChildren(children: ChildSessionView[], on: StreamHandlers): TemplateResult {
  return html`<h3>${t('Child session')}</h3>
    <ul class="links" id="catalog-children">
      ${children.map(
        (c) =>
          html`<li>
            <a
              href="#"
              class="open-child"
              data-child=${c.id}
              @click=${(e: Event) => {
                e.preventDefault();
                on.openSession(c.id);
              }}
              >${t('Open child session {0}', oneLine(c.id, 80))}</a
            >
            <span class="muted">${oneLine(c.mode, 40)}${c.label ? ` · ${oneLine(c.label, 120)}` : ''}</span>
          </li>`,
      )}
    </ul>`;
}
