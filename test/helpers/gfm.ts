/**
 * Markdown rendered as GitHub renders a PR comment: by cmark-gfm (GitHub's own renderer, Debian's
 * package, which scripts/install-test-deps.sh installs before `npm test`) with GitHub's
 * extensions. Raw HTML is let through (`--unsafe`), as GitHub sanitizes only after rendering.
 * A missing cmark-gfm throws: a test of what GitHub shows must not pass without rendering it.
 */
import { execFileSync } from 'node:child_process';

const EXTENSIONS = ['table', 'strikethrough', 'autolink', 'tagfilter', 'tasklist'];

export function renderGfm(markdown: string): string {
  const args = [...EXTENSIONS.flatMap((name) => ['--extension', name]), '--unsafe'];
  return execFileSync('cmark-gfm', args, { input: markdown, encoding: 'utf8' });
}
