/**
 * Testset versions for the `evals testset` CLI tests (`test/testset-cli-*.test.ts`): three
 * versions of a capitals testset, a git repository that commits them in turn, and JSON parsing.
 */
import { commitAll, newRepo } from './git.ts';
import { writeFiles } from './cli.ts';

/** Version 1 of testsets/capitals.csv: France and Germany, with dedup ids. */
export const V1 = '__dedup_id__,country,capital\nfr,France,Paris\nde,Germany,Berlin\n';
const V2 = `${V1}jp,Japan,Tokyo\nit,Italy,Rome\n`;
/** Version 3, the third commit: one row removed (it), one changed (jp's capital), one added (es). */
export const V3 =
  '__dedup_id__,country,capital\nfr,France,Paris\nde,Germany,Berlin\njp,Japan,Kyoto\nes,Spain,Madrid\n';

/** A repository whose testsets/capitals.csv went through V1, V2 and V3 in three commits. */
export function threeCommitRepo(): { dir: string; shas: string[] } {
  const dir = newRepo();
  const shas: string[] = [];
  for (const [text, message] of [
    [V1, 'two capitals'],
    [V2, 'add Japan and Italy'],
    [V3, 'Kyoto, no Italy, add Spain'],
  ] as const) {
    writeFiles(dir, { 'testsets/capitals.csv': text });
    shas.push(commitAll(dir, message));
  }
  return { dir, shas };
}

/** `text` parsed as JSON, typed as `T` (unchecked). */
export function json<T>(text: string): T {
  return JSON.parse(text) as T;
}
