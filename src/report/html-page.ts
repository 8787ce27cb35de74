/**
 * The HTML report as one self-contained file: the page's script (Chart.js inside) and
 * stylesheet inline, the report model as a JSON data block, nothing fetched. A Content Security
 * Policy lets only that script and that stylesheet run (by their hashes) and forbids every
 * request, so the page works from file:// and an output holding markup or script is inert: the
 * script sets all user text as text, and even markup that got in could run nothing.
 */
import { createHash } from 'node:crypto';
import { REPORT_APP_CSS, REPORT_APP_JS } from './html-app.generated.ts';
import type { ReportModel } from './html-model.ts';
import { visible } from '../shared/bidi-visible.ts';

/** The whole page for `model`. */
export function renderReportHtml(model: ReportModel): string {
  const csp = [
    "default-src 'none'",
    `script-src '${sha256(REPORT_APP_JS)}'`,
    // No style attributes: the script sizes and places elements through the CSSOM (element.style),
    // which a policy does not govern, so markup that got in could not restyle the page either.
    `style-src '${sha256(REPORT_APP_CSS)}'`,
    'img-src data:',
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // The title (the config's name) is shown as the page shows text: a bidirectional control in
    // it would reorder the tab's and the window list's text around it.
    `<title>${escapeText(visible(model.title))}</title>`,
    `<style>${REPORT_APP_CSS}</style>`,
    '</head>',
    '<body>',
    `<main id="app"><p>${escapeText(model.verdict.toUpperCase())}: ${escapeText(visible(model.title))} (the report needs JavaScript to show its tables and charts)</p></main>`,
    `<script type="application/json" id="report-data">${jsonForScript(model)}</script>`,
    `<script>${REPORT_APP_JS}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/**
 * JSON that cannot end its `<script>` block or open a comment in it: `<`, `>` and `&` as
 * `\u` escapes (JSON.parse reads them back), and the two line separators JavaScript once
 * treated as line ends.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
