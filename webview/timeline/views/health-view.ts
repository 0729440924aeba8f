// The compact "Session health" header: the session, dsh's verdict, whether it is live, the counts.
// Everything else (header fields, sizes, timings) folds open on demand so the timeline keeps the room.
import { html, nothing, type TemplateResult } from 'lit';
import type { LineageSummary, LineageTarget, LoadProgress, SessionSummary, WebviewString } from '../../../src/protocol';
import { oneLine } from '../safe-text';
import { counted, formatNumber, t } from '../strings';

export interface HealthHandlers {
  reload(): void;
  reveal(line: number): void;
  /** Follows the lineage: the parent's log, or a child's. */
  openLineage(to: LineageTarget): void;
}

/**
 * `openTurn`: what the crash review made of an open last turn. A turn left open in a file nobody
 * writes to any more is a crash, and the header must not call it live while the banner says so.
 */
export function renderHealth(s: SessionSummary, children: number, on: HealthHandlers, openTurn?: 'growing' | 'still'): TemplateResult {
  const v = s.verdict;
  const c = s.counts;
  const problems = c.errors + c.warnings + c.infos;
  const field = (name: string, word: WebviewString, value: string | number | undefined) =>
    value === undefined
      ? nothing
      : html`<div class="fact-pair">
          <dt>${t(word)}</dt>
          <dd class="fact" data-field=${name}>${value}</dd>
        </div>`;
  return html`<header id="health" aria-label=${t('Session health')}>
    <div class="health-line">
      <h1 id="session-title" title=${s.filePath}><span id="session-id">${oneLine(s.title, 120)}</span></h1>
      <span id="verdict" class="pill ${v.ok ? 'ok' : 'error'}" data-ok=${v.ok ? 'true' : 'false'} title=${v.format ?? nothing}>
        <span class="codicon codicon-${v.ok ? 'pass' : 'error'}" aria-hidden="true"></span
        >${v.ok ? t('dsh opens this log') : t('dsh refuses this log')}</span
      >
      ${
        // A log already in today's generation that dsh opens: the first pill says it all (the line below names the format).
        s.upgrade && !(s.upgrade.ok && s.upgrade.current)
          ? html`<span
              id="upgrade-verdict"
              class="pill ${s.upgrade.ok ? 'ok' : 'warning'}"
              data-ok=${s.upgrade.ok ? 'true' : 'false'}
              title=${s.upgrade.text}
              ><span class="codicon codicon-${s.upgrade.ok ? 'history' : 'warning'}" aria-hidden="true"></span
              >${oneLine(s.upgrade.label, 120)}</span
            >`
          : nothing
      }
      ${
        s.live === 'live' && openTurn === 'still'
          ? html`<span id="live-status" class="pill warning" data-activity="still"
              ><span class="codicon codicon-debug-disconnect" aria-hidden="true"></span>${t(
                'The last turn is open and nothing is being written: it looks like a crash',
              )}</span
            >`
          : html`<span id="live-status" class="pill ${s.live}"
              >${s.live === 'live' ? html`<span class="codicon codicon-pulse" aria-hidden="true"></span>` : nothing}${oneLine(
                s.liveText,
                160,
              )}</span
            >`
      }
      ${
        problems
          ? html`<span class="pill ${s.worstSeverity ?? 'info'}" id="problem-count" data-count=${problems}>
              <span class="codicon codicon-${s.worstSeverity === 'info' ? 'info' : (s.worstSeverity ?? 'info')}" aria-hidden="true"></span
              >${t('{0}, {1}', counted(c.errors, '1 error', '{0} errors'), counted(c.warnings, '1 warning', '{0} warnings'))}</span
            >`
          : nothing
      }
      ${
        s.restrictedMode
          ? html`<span id="read-only" class="pill warning"
              >${t('Restricted Mode: read-only — this workspace is not trusted, so the editor only reads the log')}</span
            >`
          : html`<span
              id="append-only"
              class="pill muted"
              title=${t('Saving adds new events at the end of the file; nothing already in it is changed')}
              >${t('Append-only')}</span
            >`
      }
    </div>
    <dl id="count-fields" class="facts">
      ${s.facts.map(
        (f) =>
          html`<div class="fact-pair">
            <dt>${f.label}</dt>
            <dd data-field=${f.name} title=${f.full ?? f.value}>${f.value}</dd>
          </div>`,
      )}
    </dl>
    ${s.olderGeneration ? renderOlderGeneration(s.olderGeneration) : nothing} ${renderUpgrade(s, on)}
    ${
      v.ok
        ? nothing
        : html`<div id="refusal-box" class="refusal">
            <p id="refusal-message">
              ${oneLine(v.text, 400)}${v.dshText ? html` <span class="muted">${oneLine(v.dshText, 400)}</span>` : nothing}
              ${v.note ? html`<span id="verdict-note">${oneLine(v.note, 400)}</span>` : nothing}
              ${
                v.line
                  ? html` <a
                      href="#"
                      id="refusal-reveal"
                      @click=${(e: Event) => {
                        e.preventDefault();
                        on.reveal(v.line!);
                      }}
                      >${t('Show line {0}', v.line)}</a
                    >`
                  : nothing
              }
            </p>
            <dl id="refusal" class="facts">
              ${field('rule', 'Rule', v.rule)}${field('line', 'Line', v.line)}${field('seq', 'seq', v.seq)}${field('stage', 'Stage', v.stage)}${field(
                'errorName',
                'dsh error',
                v.errorName,
              )}
            </dl>
          </div>`
    }
    ${renderLineage(s.lineage, children, on)}
    ${s.stillReadable ? html`<p id="still-readable" class="muted">${oneLine(s.stillReadable, 400)}</p>` : nothing}
    ${
      s.file.state !== 'following'
        ? html`<div id="file-notice" role="alert" class="refusal" data-state=${s.file.state}>
            <p id="file-explanation">${oneLine(s.file.explanation ?? s.file.state, 300)}</p>
            ${s.file.state !== 'deleted' ? html`<vscode-button id="reload" @click=${on.reload}>${t('Reload from disk')}</vscode-button>` : nothing}
          </div>`
        : nothing
    }
    ${
      s.headerFields
        ? html`<details id="health-details">
            <summary>${s.headerAccepted ? t('Header') : t('Header (as written; dsh does not accept it)')}</summary>
            <dl id="header-fields" class="fields">
              ${s.headerFields.map(
                (f) =>
                  html`<dt>${f.label}</dt>
                    <dd data-field=${f.name} title=${f.full ?? f.value}>${f.value}</dd>`,
              )}
            </dl>
          </details>`
        : nothing
    }
  </header>`;
}

/** The file is an older generation of its session: history, read-only, and which file dsh reads instead. */
function renderOlderGeneration(g: NonNullable<SessionSummary['olderGeneration']>): TemplateResult {
  return html`<p id="older-generation" class="notice" data-current=${g.current}>
    <span class="codicon codicon-history" aria-hidden="true"></span> ${oneLine(g.text, 400)}
  </p>`;
}

/**
 * Today's dsh's verdict, when it says more than the pill: a log it migrates (from which format) or
 * refuses (the edge, dsh's words, the line to jump to).
 */
function renderUpgrade(s: SessionSummary, on: HealthHandlers): TemplateResult | typeof nothing {
  const u = s.upgrade;
  if (!u) return nothing;
  return html`<p
    id="upgrade-detail"
    class=${u.ok ? 'muted' : 'upgrade-refusal'}
    data-ok=${u.ok ? 'true' : 'false'}
    data-edge=${u.edge ?? nothing}
  >
    ${oneLine(u.text, 400)}${u.dshText ? html` <span class="muted">${oneLine(u.dshText, 400)}</span>` : nothing}
    ${
      u.line
        ? html` <a
            href="#"
            id="upgrade-reveal"
            @click=${(e: Event) => {
              e.preventDefault();
              on.reveal(u.line!);
            }}
            >${t('Show line {0}', u.line)}</a
          >`
        : nothing
    }
  </p>`;
}

/** A child session's seed and parent, and a parent's children, each a link to follow. */
function renderLineage(l: LineageSummary | undefined, children: number, on: HealthHandlers): TemplateResult | typeof nothing {
  if (!l && children === 0) return nothing;
  const link = (id: string, text: string, to: LineageTarget) =>
    html`<a
      href="#"
      id=${id}
      @click=${(e: Event) => {
        e.preventDefault();
        on.openLineage(to);
      }}
      >${text}</a
    >`;
  return html`<div id="lineage" data-seed-length=${l?.seedLength ?? 0} data-children=${children}>
    ${
      l && l.seedLength > 0
        ? html`<span id="seed-note"
            ><span class="seed-swatch" aria-hidden="true"></span> ${t('Inherited from the parent session (seed)')}:
            ${t('seqs {0}–{1}', 0, l.seedLength - 1)}</span
          >`
        : nothing
    }
    ${
      l?.parentSession !== undefined
        ? html`<span
              >${t('Parent session')}: <code>${oneLine(l.parentSession, 80)}</code>${l.origin ? ` (${oneLine(l.origin, 40)})` : ''}</span
            >
            ${link('open-parent', t('Open parent session'), 'parent')}`
        : nothing
    }
    ${children > 0 ? link('open-children', t('Open child sessions ({0})', children), 'children') : nothing}
  </div>`;
}

export function renderLoading(m: LoadProgress): TemplateResult {
  const reading = m.phase === 'reading';
  const pct = m.fraction !== undefined ? ` — ${Math.round(m.fraction * 100)} %` : '';
  const name = oneLine(m.fileName, 200);
  const id = m.headerFields?.find((f) => f.name === 'id')?.value;
  return html`<section id="loading" aria-live="polite">
    ${id ? html`<h1 id="session-title">${id}</h1>` : nothing}
    <p>
      ${reading ? t('Reading {0}', name) : t("Checking {0} against dsh's rules", name)}${pct}${m.events ? ` ${t('({0} events)', formatNumber(m.events))}` : ''}
    </p>
    <vscode-progress-bar
      id="load-progress"
      aria-label=${t('Loading the session log')}
      data-phase=${m.phase}
      .value=${m.fraction !== undefined ? Math.round(m.fraction * 1000) : 0}
      max="1000"
      ?indeterminate=${m.fraction === undefined}
    ></vscode-progress-bar>
  </section>`;
}
