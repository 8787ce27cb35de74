/**
 * The one way the page makes elements: text is always set as text (`textContent`), never parsed
 * as HTML, so nothing from the results (an output holding `<script>`) can become markup. Sizes
 * and positions are set through `node.style` (the CSSOM), never as a `style` attribute: the
 * page's Content Security Policy refuses style attributes.
 */

import { visible } from '../src/shared/bidi-visible.ts';

export { visible } from '../src/shared/bidi-visible.ts';

type Child = Node | string | null | undefined | false;

/**
 * `<tag class="…">children</tag>`; strings become text nodes, and they and a `title` (a tooltip)
 * are shown `visible`. No `style` among `attrs`.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    node.setAttribute(name, name === 'title' ? visible(value) : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(visible(child)) : child);
  }
  return node;
}

/** The page's number formats, one function per kind (see format.ts). */
export {
  cost,
  count,
  milliseconds,
  percent,
  plural,
  points,
  pointsChange,
  score,
  scoreChange,
  seconds,
} from './format.ts';

/** A section with a heading. */
export function section(title: string, id: string, ...children: Child[]): HTMLElement {
  return el('section', { id }, el('h2', {}, title), ...children);
}

/** A `grid` table: a header row of `heads` (text or `<th>` cells), then `rows`. */
export function gridTable(
  heads: readonly (string | HTMLElement)[],
  rows: readonly Node[],
): HTMLElement {
  const cells = heads.map((h) => (typeof h === 'string' ? el('th', {}, h) : h));
  return el(
    'table',
    { class: 'grid' },
    el('thead', {}, el('tr', {}, ...cells)),
    el('tbody', {}, ...rows),
  );
}
