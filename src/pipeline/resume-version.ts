/**
 * `evals run --resume` of a partial another evalgate version wrote (docs/artifact.md, "Artifacts
 * across evalgate versions"). The finished artifact keeps the partial's cases as they were
 * scored and records this evalgate's version, which computes the new cases, the summaries and
 * the gate: like `evals merge`, resuming needs an evalgate at least as new as the one that wrote
 * the partial. A newer one's partial is refused; an older one's is resumed, with a warning that
 * its kept cases keep the scores the older evalgate gave them.
 */
import type { ResultsArtifact } from '../types/index.ts';
import { isNewerVersion } from '../artifact/unknown-fields.ts';
import { usageError } from '../shared/errors.ts';
import { pathWord } from '../shared/shell-word.ts';
import { printable } from '../shared/text-table.ts';
import { toolVersion } from '../shared/version.ts';
import type { CommandContext } from './context.ts';

/**
 * Refuses `partial` (the file `path`, holding `kept` cases) when a newer evalgate wrote it;
 * warns when an older one did. Versions that are not `major.minor.patch` are never compared.
 */
export function checkPartialVersion(
  partial: ResultsArtifact,
  path: string,
  kept: number,
  ctx: CommandContext,
): void {
  const version = partial.tool.version;
  const shown = printable(version);
  if (isNewerVersion(version, toolVersion)) {
    throw usageError(
      'resume.newer',
      `--resume ${printable(path)} was written by evalgate ${shown}, newer than this one (${toolVersion}): resuming it here would score the missing cases, and decide the gate, by older rules than its kept cases were scored by, and record the older version; resume it with evalgate ${shown} or newer, or run evals run without --resume to run every case again`,
      path,
    );
  }
  if (kept > 0 && isNewerVersion(toolVersion, version)) {
    ctx.stderr.write(
      `warning: ${printable(path)} was written by evalgate ${shown}, older than this one (${toolVersion}): its ${kept} kept case${kept === 1 ? '' : 's'} keep the scores evalgate ${shown} gave them; the new cases, the summaries, the gate and tool.version are this evalgate's. To score every case with this one, run it without --resume (or finish this run with evalgate ${shown}: \`evals run --resume ${pathWord(path)}\`)\n`,
    );
  }
}
