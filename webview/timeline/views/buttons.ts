// The two buttons of the toolbar and its panels: an icon-only button (back, forward, previous and next
// match), named for screen readers by its label; and a toggle that shows whether its panel is open.
import { html, nothing, type TemplateResult } from 'lit';

export interface IconButton {
  id: string;
  /** A codicon name without the `codicon-` prefix. */
  icon: string;
  /** The accessible name. */
  label: string;
  /** The tooltip (with the key that does the same). */
  title: string;
  disabled: boolean;
  onClick(): void;
}

export function iconButton(b: IconButton): TemplateResult {
  return html`<button
    type="button"
    class="icon-button"
    id=${b.id}
    title=${b.title}
    aria-label=${b.label}
    ?disabled=${b.disabled}
    @click=${b.onClick}
  >
    <span class="codicon codicon-${b.icon}" aria-hidden="true"></span>
  </button>`;
}

export interface ToggleButton {
  id: string;
  icon: string;
  text: string;
  pressed: boolean;
  /** The id of the panel it opens, when it has one of its own. */
  controls?: string;
  title?: string;
  onClick(): void;
}

export function toggleButton(b: ToggleButton): TemplateResult {
  return html`<button
    type="button"
    class="toggle"
    id=${b.id}
    aria-pressed=${b.pressed ? 'true' : 'false'}
    aria-controls=${b.controls ?? nothing}
    title=${b.title ?? nothing}
    @click=${b.onClick}
  >
    <span class="codicon codicon-${b.icon}" aria-hidden="true"></span> ${b.text}
  </button>`;
}
