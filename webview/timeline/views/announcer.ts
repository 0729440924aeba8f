// One persistent polite live region for the whole view. Status changes (a live log closing, an order
// switched, a search finished) are said once; redrawing the view never re-creates the region, so a
// screen reader does not chatter while a live log grows.
import { html, type TemplateResult } from 'lit';

export class Announcer {
  private readonly region: HTMLElement;
  private last = '';

  constructor() {
    this.region = document.createElement('div');
    this.region.id = 'announcer';
    this.region.className = 'visually-hidden';
    this.region.setAttribute('role', 'status');
    this.region.setAttribute('aria-live', 'polite');
    this.region.setAttribute('aria-atomic', 'true');
  }

  say(text: string): void {
    if (text === this.last) return;
    this.last = text;
    this.region.textContent = text;
  }

  /** The region itself, placed by the view once; Lit keeps the same node across redraws. */
  render(): TemplateResult {
    return html`${this.region}`;
  }
}
