import { readFile } from 'node:fs/promises';
import { applyPins, numericPinSuites } from '../../config/pin.ts';
import { readSuiteTestset } from '../../bind/testsets.ts';
import { UsageError, usageError } from '../../shared/errors.ts';
import { writeFileAtomic } from '../../shared/write-file-atomic.ts';
import { revisionMatches } from '../../testsets/identity.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import { loadConfig } from '../../pipeline/load.ts';
import { EXIT_UNWRITTEN, unwrittenFile } from '../../pipeline/write-failure.ts';
import type { Scrubber } from '../../shared/secrets.ts';

/**
 * `evals testset pin [config]`: writes each suite's current testset revision into its
 * `testset.revision`, keeping the file's formatting; `--check` writes nothing and exits 1 when
 * a pin is stale. `scrubber` (the run's) removes secrets from what a problem with a testset
 * quotes of it, before it is cut short.
 */
export async function pinCommand(
  configArg: string | undefined,
  args: { check: boolean },
  ctx: CommandContext,
  scrubber: Scrubber,
): Promise<number> {
  // Writing the pin is what repairs one written as bare digits (`revision: 000000`, which YAML
  // reads as the number 0): it is read as written here, and rewritten quoted below even when it
  // matches. `--check` writes nothing, so it refuses such a pin as every other command does.
  const config = await loadConfig(configArg, ctx, { numericPinsAsWritten: !args.check });
  const text = args.check ? '' : await readFile(config.absPath, 'utf8');
  const unquoted = new Set(numericPinSuites(text));
  const results = await Promise.all(
    // Only the revisions are needed: the cases are not held.
    config.suites.map((suite) => readSuiteTestset(config, suite, ctx.cwd, scrubber.text)),
  );
  const issues = results.flatMap((r) => (r.ok ? [] : r.issues));
  if (issues.length > 0) throw new UsageError(issues);

  const states = config.suites.map((suite, i) => {
    const r = results[i];
    const current = r?.ok ? r.testset.revision : '';
    const pinned = suite.testset.revision;
    return {
      suite,
      current,
      pinned,
      fresh: pinned !== undefined && revisionMatches(pinned, current) && !unquoted.has(suite.index),
    };
  });

  if (args.check) {
    let stale = 0;
    for (const s of states) {
      if (s.pinned === undefined) {
        ctx.stdout.write(
          `  ${s.suite.id}: not pinned (current revision ${s.current.slice(0, 12)})\n`,
        );
      } else if (!s.fresh) {
        stale += 1;
        ctx.stdout.write(
          `✗ ${s.suite.id}: pinned ${s.pinned}, but the testset is now ${s.current.slice(0, 12)}\n`,
        );
      } else {
        ctx.stdout.write(`✓ ${s.suite.id}: ${s.pinned}\n`);
      }
    }
    ctx.stdout.write(
      stale > 0
        ? `${stale} stale pin${stale === 1 ? '' : 's'}: run evals testset pin ${config.file} to update\n`
        : 'every pin is current\n',
    );
    return stale > 0 ? 1 : 0;
  }

  const updates = states
    .filter((s) => !s.fresh)
    .map((s) => ({ suiteIndex: s.suite.index, revision: s.current }));
  if (updates.length === 0) {
    ctx.stdout.write('every pin is current; nothing to write\n');
    return 0;
  }
  const pinned = applyPins(text, updates);
  if (!pinned.ok) throw usageError('pin.failed', pinned.message, config.file);
  try {
    await writeFileAtomic(config.absPath, pinned.text);
  } catch (error) {
    const line = unwrittenFile(config.file, error, `it is unchanged, and nothing was pinned`);
    if (line === undefined) throw error;
    ctx.stderr.write(`error: ${line}\n`);
    return EXIT_UNWRITTEN;
  }
  for (const s of states.filter((x) => !x.fresh)) {
    ctx.stdout.write(
      `pinned ${s.suite.id}: ${s.current.slice(0, 12)}${s.pinned ? ` (was ${s.pinned}${unquoted.has(s.suite.index) ? ', which YAML read as a number' : ''})` : ''}\n`,
    );
  }
  ctx.stdout.write(`updated ${config.file}\n`);
  return 0;
}
