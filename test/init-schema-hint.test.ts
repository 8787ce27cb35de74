/**
 * The `# yaml-language-server: $schema=…` line `evals init` writes points where evalgate's
 * schema is seen from the project: in a workspace (npm, pnpm, yarn) evalgate is installed once,
 * in the root's node_modules, and `./node_modules/evalgate/…` beside a package's evals.yaml
 * named a file that was not there, so the editor checked nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const SCHEMA = 'node_modules/evalgate/schemas/evals.schema.json';

function hint(dir: string): string {
  return readFileSync(join(dir, 'evals.yaml'), 'utf8').split('\n')[0]!;
}

describe('evals init: the schema line of evals.yaml', () => {
  it("points at a workspace root's evalgate, two folders up", async () => {
    const root = scratch();
    writeFiles(root, { [SCHEMA]: '{}\n', 'packages/app/package.json': '{ "type": "module" }\n' });
    for (const template of ['function', 'command']) {
      const dir = join(root, 'packages', 'app', template);
      const r = await runInProcess(['init', dir, '--template', template], root);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(hint(dir), `# yaml-language-server: $schema=../../../${SCHEMA}`);
    }
  });

  it('points beside the config when evalgate is installed there, or nowhere yet', async () => {
    const installed = scratch();
    writeFiles(installed, { [SCHEMA]: '{}\n' });
    const fresh = scratch();
    for (const dir of [installed, fresh]) {
      const r = await runInProcess(['init'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(hint(dir), `# yaml-language-server: $schema=./${SCHEMA}`);
    }
  });
});
