// A tiny element builder. Text always goes in through textContent, never as HTML, so log content
// cannot inject markup into the webview.

type Child = Node | string | number | false | null | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string | number | boolean | undefined>,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Record<string, string | number | boolean | undefined>, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** A definition list from label/value pairs; pairs with an undefined value are left out. */
export function fieldList(id: string, rows: [label: string, value: string | undefined, key: string][]): HTMLElement {
  const dl = h('dl', { id, class: 'fields' });
  for (const [label, value, key] of rows) {
    if (value === undefined) continue;
    append(dl, [h('dt', {}, label), h('dd', { 'data-field': key }, value)]);
  }
  return dl;
}
