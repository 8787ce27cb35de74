/**
 * The one way the page makes elements: text is always set as text (`textContent`), never parsed
 * as HTML, so nothing from the results (an output holding `<script>`) can become markup. Sizes
 * and positions are set through `node.style` (the CSSOM), never as a `style` attribute: the
 * page's Content Security Policy refuses style attributes.
 */

type Child = Node | string | null | undefined | false;

/** `<tag class="…">children</tag>`; strings become text nodes. No `style` among `attrs`. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** The counts and sentences, kept free of the DOM so tests read them in Node. */
export { count, plural } from './wording.ts';

/** `91.7%`; a rate below 1 never shows as 100.0%. */
export function percent(rate: number | null): string {
  if (rate === null) return '—';
  const p = Math.round(rate * 1000) / 10;
  return `${(rate < 1 && p >= 100 ? 99.9 : p).toFixed(1)}%`;
}

/** A score with 3 decimals, or `—`. */
export function score(value: number | null): string {
  return value === null ? '—' : value.toFixed(3);
}

/** A section with a heading. */
export function section(title: string, id: string, ...children: Child[]): HTMLElement {
  return el('section', { id }, el('h2', {}, title), ...children);
}
