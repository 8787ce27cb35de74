/**
 * The import rules of src/ (.dependency-cruiser.cjs), run by `npm run lint`: they pass on the
 * code as it is, and fail once an import points back up the pipeline.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tempFolder } from './helpers/cli.ts';

const root = join(import.meta.dirname, '..');
const work = tempFolder('evalgate-layers-');
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of src/ with the lint's settings, and `extra` files added to it. */
function copyOfSrc(name: string, extra: Record<string, string> = {}): string {
  const dir = join(work, name);
  cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
  for (const file of ['tsconfig.json', '.dependency-cruiser.cjs']) {
    cpSync(join(root, file), join(dir, file));
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(extra)) writeFileSync(join(dir, path), text);
  return dir;
}

function cruise(dir: string): { status: number | null; output: string } {
  const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const run = spawnSync(process.execPath, [bin, 'src', '--config', '.dependency-cruiser.cjs'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the layers of src/', () => {
  it('pass as the code is', () => {
    const { status, output } = cruise(copyOfSrc('as-is'));
    assert.equal(status, 0, output);
    assert.match(output, /no dependency violations found/);
  });

  it('fail on an import from the engine back into the pipeline: a layer rule and a folder cycle', () => {
    const dir = copyOfSrc('back-edge', {
      'src/run/back-edge.ts':
        "import { execute } from '../pipeline/execute.ts';\nexport const back = execute;\n",
    });
    const { status, output } = cruise(dir);
    assert.notEqual(status, 0, output);
    assert.match(output, /error layer-run: src\/run\/back-edge\.ts → src\/pipeline\/execute\.ts/);
    assert.match(output, /error no-folder-cycles: src\/run → \s*src\/pipeline →\s*src\/run/);
  });

  it('fail on a type-only import that names what a later layer defines', () => {
    const dir = copyOfSrc('type-edge', {
      'src/types/back-edge.ts':
        "import type { CaseLog } from '../artifact/case-log.ts';\nexport type Log = CaseLog;\n",
    });
    const { status, output } = cruise(dir);
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /error layer-types: src\/types\/back-edge\.ts → src\/artifact\/case-log\.ts/,
    );
  });
});
