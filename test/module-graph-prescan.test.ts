/**
 * The configHash's module graph skips esbuild for modules that hold no string a local import
 * could be written with. That shortcut must never miss a file esbuild would find: every way of
 * importing a local file is seen by the scan, and for seeded random modules the scan's "no"
 * always matches esbuild's graph of the module alone.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mulberry32 } from '../src/compare/sign-flip.ts';
import {
  esbuildModuleGraph,
  mayImportLocalFile,
  moduleGraph,
} from '../src/pipeline/module-graph-hash.ts';
import { tempFolder } from './helpers/temp.ts';

/** A project with local files to import: lib/a.ts, lib/index.ts, data.json. */
function project(): string {
  const dir = tempFolder('evalgate-prescan-');
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'lib', 'index.ts'), 'export const b = 2;\n');
  writeFileSync(join(dir, 'data.json'), '{ "c": 3 }\n');
  return dir;
}

/** Each way a module can import a local file that esbuild follows. */
const LOCAL_IMPORTS = [
  "import { a } from './lib/a.ts';\nexport const v = a;",
  'import { a } from "./lib/a.js";\nexport const v = a;',
  "import './lib/a.ts';",
  "export * from './lib/a.ts';",
  "export { a } from\n  './lib/a.ts';",
  "import data from './data.json' with { type: 'json' };\nexport const v = data;",
  "export const m = await import('./lib/a.ts');",
  'export const m = await import(`./lib/a.ts`);',
  "export const m = await import(/* chunk */ './lib/a.ts');",
  "import { b } from './lib';\nexport const v = b;",
  "import { b } from './lib/';\nexport const v = b;",
  "export const { b } = require('./lib');",
  "export const { a } = require ( './lib/a.ts' );",
  "import a = require('./lib/a.ts');\nexport const v = a;",
  "const name = 'a';\nexport const m = await import(`./lib/${name}.ts`);",
  "export const m = require('./lib/' + 'a.ts');",
  "import { a } from '\\u002e/lib/a.ts';\nexport const v = a;",
  "import { a } from '\\x2e/lib/a.ts';\nexport const v = a;",
];

describe('module graph: the esbuild shortcut', () => {
  it('sees every form of local import, and esbuild finds each one', async () => {
    const dir = project();
    for (const [i, line] of LOCAL_IMPORTS.entries()) {
      const file = join(dir, `m${i}.ts`);
      writeFileSync(file, `${line}\nexport function answer() { return 1; }\n`);
      assert.equal(mayImportLocalFile(file), true, line);
      const graph = await moduleGraph([file], dir, []);
      assert.ok(graph.files.length > 1, `esbuild follows ${JSON.stringify(line)}`);
      assert.deepEqual(graph, await esbuildModuleGraph([file], dir, []), line);
    }
  });

  it('an absolute path is seen too', async () => {
    const dir = project();
    const file = join(dir, 'abs.ts');
    writeFileSync(
      file,
      `import { a } from ${JSON.stringify(join(dir, 'lib', 'a.ts'))};\nexport const v = a;\n`,
    );
    assert.equal(mayImportLocalFile(file), true);
    assert.deepEqual((await moduleGraph([file], dir, [])).files.sort(), [
      file,
      join(dir, 'lib', 'a.ts'),
    ]);
  });

  it('a module importing only packages and node: builtins is its own graph, without esbuild', async () => {
    const dir = project();
    const file = join(dir, 'answer.ts');
    writeFileSync(
      file,
      [
        "import OpenAI from 'openai';",
        "import { readFileSync } from 'node:fs';",
        "import { b } from '@/lib';",
        'export async function answer({ testCase }: { testCase: { q: string } }) {',
        "  return `${testCase.q}: ${readFileSync('data.json', 'utf8')}`;",
        '}',
      ].join('\n'),
    );
    assert.equal(mayImportLocalFile(file), false);
    assert.deepEqual(await moduleGraph([file], dir, []), { files: [file] });
    assert.deepEqual(await esbuildModuleGraph([file], dir, []), { files: [file] });
  });

  it('a module that cannot be read is left to esbuild', () => {
    assert.equal(mayImportLocalFile(join(tempFolder('evalgate-prescan-'), 'missing.ts')), true);
  });

  it('seeded random modules: whenever the scan says no, esbuild finds the module alone', async () => {
    const dir = project();
    const random = mulberry32(20261128);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const plain = [
      "import x from 'pkg';",
      "import { y } from 'node:path';",
      "const s = 'a.b/c';",
      'const t = `x ${1}`;',
      '// see ./lib/a.ts',
      "/* import './lib/a.ts' */",
      'const u = "don\'t";',
      'export const v = 1 / 2;',
      "const w = 'x' + '.' + 'y';",
    ];
    let scannedNo = 0;
    let scannedYes = 0;
    for (let i = 0; i < 60; i++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        random() < 0.15 ? pick(LOCAL_IMPORTS) : pick(plain),
      );
      const file = join(dir, `r${i}.ts`);
      writeFileSync(file, `${lines.join('\n')}\nexport function answer() { return 1; }\n`);
      const graph = await esbuildModuleGraph([file], dir, []);
      if (mayImportLocalFile(file)) {
        scannedYes++;
      } else {
        scannedNo++;
        assert.deepEqual(graph.files, [file], lines.join('\n'));
      }
    }
    // Both sides of the scan were exercised.
    assert.ok(scannedNo >= 10 && scannedYes >= 10, `${scannedNo} no, ${scannedYes} yes`);
  });
});
