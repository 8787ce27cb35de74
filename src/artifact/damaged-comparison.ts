/**
 * A results file whose `comparison` block alone is damaged (a field of the wrong type, one
 * missing): `--resume` makes the comparison again over every case, so such a block is no reason
 * to refuse the partial; it is left out, and the problems it had are said. What it says of the
 * baseline (`base`: the file `--baseline` named and which run it held) is salvaged when it is
 * still whole, so that the resumed run is compared with that baseline again.
 */
import { isRecord } from '../shared/is-record.ts';
import type { RecordedBaseline } from './merge-baseline.ts';
import {
  artifactProblems,
  isExactlyValid,
  listProblems,
  problemText,
  type UnknownProperties,
} from './schema.ts';

/**
 * Deletes the `comparison` of `value` (a parsed results file) when the file is valid without it
 * (read as `mode` reads it) and not with it; returns its problems then, else undefined.
 */
export function dropDamagedComparison(
  value: unknown,
  mode: UnknownProperties,
): DroppedComparison | undefined {
  if (!isRecord(value) || value.comparison === undefined || isExactlyValid('results', value)) {
    return undefined;
  }
  const { comparison: dropped, ...rest } = value;
  if (artifactProblems(rest, mode).problems.length > 0) return undefined;
  const found = artifactProblems(value, mode);
  delete value.comparison;
  return {
    problems: listProblems({ problems: found.problems.map(problemText), all: found.all }),
    baseline: salvagedBaseline(isRecord(dropped) ? dropped.base : undefined),
  };
}

/** A damaged comparison left out: its problems, and the baseline it still names, or why not. */
export interface DroppedComparison {
  problems: string;
  baseline: { recorded: RecordedBaseline } | { lost: string };
}

/**
 * The baseline a damaged block's `base` names, when what it needs is whole: the file
 * (`base.path`, text) and which run it held (`config` and `startedAt`, text; `git`, null or a
 * commit and ref), so that the file can be checked to be that run still. Else why not, saying
 * which part is damaged.
 */
function salvagedBaseline(base: unknown): DroppedComparison['baseline'] {
  if (!isRecord(base)) return { lost: 'its base, which names the baseline, is damaged too' };
  const { path, config, startedAt, git } = base;
  if (typeof path !== 'string' || path === '') {
    return { lost: 'its base.path, the baseline file, is damaged or missing' };
  }
  const damaged = [
    typeof config === 'string' ? [] : ['base.config'],
    typeof startedAt === 'string' ? [] : ['base.startedAt'],
    git === null || isCommit(git) ? [] : ['base.git'],
  ].flat();
  if (damaged.length > 0) {
    return {
      lost: `it names ${path}, but ${damaged.join(' and ')}, which say${damaged.length === 1 ? 's' : ''} which run that file held, ${damaged.length === 1 ? 'is' : 'are'} damaged, so the file cannot be checked to be the run the interrupted one compared with`,
    };
  }
  return {
    recorded: {
      path,
      identity: {
        config: config as string,
        startedAt: startedAt as string,
        git: isCommit(git) ? { sha: git.sha, ref: git.ref } : null,
      },
    },
  };
}

function isCommit(value: unknown): value is { sha: string | null; ref: string | null } {
  if (!isRecord(value)) return false;
  const { sha, ref } = value;
  return (sha === null || typeof sha === 'string') && (ref === null || typeof ref === 'string');
}
