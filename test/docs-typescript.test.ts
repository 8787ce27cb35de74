/**
 * The TypeScript examples of README.md and docs/*.md (```ts and ```typescript blocks), read from
 * the markdown at test time and type-checked as a consumer of the published package would: each
 * block is a module of a scratch ES-module project whose node_modules/evalgate is this repo, so
 * `'evalgate'`, `'evalgate/testing'` and any other subpath resolve through package.json `exports`
 * to the built declarations in lib/, and a subpath `exports` does not list fails as it would for
 * a user. The checks are strict mode plus those tsconfig.json holds examples/ to (see the options
 * below). lib/ is built by `npm run build`, which `npm test` runs before the tests; run it first
 * when running this file alone after changing src/.
 *
 * How a block is read:
 * - A block is a whole module; none is skipped.
 * - A first line `// some/path.ts` places the block at that path of its own folder, so that its
 *   relative imports (`'../app/judge.ts'`) resolve as in the reader's project.
 * - Names a block uses without defining stand for the reader's own code (their function under
 *   test, their cases, their model call): READER_CODE declares them, with the types the
 *   examples imply, and READER_MODULES holds the reader's modules they import. Only those may
 *   be left undefined; keep them few: what a block could as well define belongs in the block.
 *
 * A block that does not type-check fails its own test with `doc-file:line:col` and the compiler's
 * message.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';

/** A TypeScript block of a doc: where its fence is (`file:line`, 1-based) and its text. */
interface Block {
  file: string;
  fenceLine: number;
  text: string;
}

const where = (block: Block): string => `${block.file}:${block.fenceLine}`;

/**
 * The reader's own code the examples call, as global declarations. Each entry says which
 * example needs it.
 */
const READER_CODE = `import type { TestEvaluator } from 'evalgate';
declare global {
  // docs/code.md, the function under test: the reader's model call.
  function callModel(country: string, model: unknown, signal: AbortSignal): Promise<{ answer: string }>;
  // docs/code.md, runTestSuite: the reader's cases, function and evaluator classes (as in
  // examples/autoblocks-quickstart/run.ts).
  interface MyCase {
    input: string;
    expectedSubstrings: string[];
  }
  const cases: MyCase[];
  function answer(testCase: MyCase): Promise<string>;
  const HasAllSubstrings: new () => TestEvaluator<MyCase, string>;
  const IsFriendly: new () => TestEvaluator<MyCase, string>;
}
export {};
`;

/** The reader's modules the examples import, by path from a block's folder. */
const READER_MODULES: Record<string, string> = {
  // docs/evaluators.md, a class evaluator: "your own LLM call".
  'app/judge.ts':
    'export declare function judgeTone(text: string, options: { strict: boolean; signal: AbortSignal }): Promise<number>;\n',
};

/** The ```ts / ```typescript blocks of `markdown`, a fence's indent taken off its lines. */
function typescriptBlocks(markdown: string, file: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(?:ts|typescript)\s*$/.exec(lines[i] ?? '');
    if (!fence) continue;
    const start = i;
    const indent = (fence[1] ?? '').length;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? ''); i++) {
      body.push((lines[i] ?? '').slice(indent));
    }
    blocks.push({ file, fenceLine: start + 1, text: body.join('\n') + '\n' });
  }
  return blocks;
}

/** Where a block goes in its folder: the path its first line names, or `example.ts`. */
function blockPath(block: Block): string {
  const named = /^\/\/ ([\w.-][\w./-]*\.(?:ts|mts|cts))\s*$/.exec(block.text.split('\n')[0] ?? '');
  return named?.[1] ?? 'example.ts';
}

/**
 * Type-checks `blocks` in one program of a scratch consumer project; for each block, its
 * compiler messages as `doc-file:line:col: TSnnnn: message` (none when it type-checks), and the
 * messages about anything else (the project itself, READER_CODE).
 */
function typeCheckBlocks(blocks: Block[]): { byBlock: string[][]; other: string[] } {
  const project = scratch();
  mkdirSync(join(project, 'node_modules'));
  // The package as installed: resolved through its package.json, `exports` and all.
  symlinkSync(repoRoot, join(project, 'node_modules', 'evalgate'), 'dir');
  const files: Record<string, string> = {
    'package.json': '{ "private": true, "type": "module" }\n',
    'reader-code.ts': READER_CODE,
  };
  const blockFiles = blocks.map((block, index) => {
    const folder = `block${index}`;
    for (const [path, text] of Object.entries(READER_MODULES)) files[`${folder}/${path}`] = text;
    const path = `${folder}/${blockPath(block)}`;
    files[path] = block.text;
    return join(project, path);
  });
  writeFiles(project, files);
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    {
      // strict, and the further checks tsconfig.json holds this repo's own examples/ to: code a
      // reader copies from the docs compiles in a project as strict as ours.
      strict: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      noFallthroughCasesInSwitch: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      noEmit: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2023',
      lib: ['es2023'],
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules', '@types')],
      // The docs' modules import each other by their .ts names, as tsx runs them.
      allowImportingTsExtensions: true,
      skipLibCheck: true,
    },
    project,
  );
  assert.deepEqual(errors, [], 'compiler options');
  const program = ts.createProgram({
    rootNames: [join(project, 'reader-code.ts'), ...blockFiles],
    options,
  });
  const byBlock: string[][] = blocks.map(() => []);
  const other: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    const source = diagnostic.file;
    const index = source ? blockFiles.indexOf(source.fileName) : -1;
    const block = blocks[index];
    if (!source || !block || diagnostic.start === undefined) {
      other.push(`${source ? relative(project, source.fileName) : 'project'}: ${message}`);
      continue;
    }
    const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
    // The block's first line is the one after its fence.
    byBlock[index]?.push(
      `${block.file}:${block.fenceLine + 1 + line}:${character + 1}: ${message}`,
    );
  }
  return { byBlock, other };
}

const docFiles = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const docBlocks = docFiles.flatMap((file) =>
  typescriptBlocks(readFileSync(join(repoRoot, file), 'utf8'), file),
);

/**
 * Wrong on purpose, checked with the docs' blocks: a wrong example must fail, at its own line,
 * and a subpath the package does not export must not resolve.
 */
const canaries = typescriptBlocks(
  [
    '# Canary',
    '',
    '```ts',
    "import { runTestSuite } from 'evalgate/testing';",
    '',
    "await runTestSuite({ id: 'x', testCases: [], testCaseHash: ['q'], fn: () => 1, retries: 3 });",
    '```',
    '',
    '```typescript',
    "import type { Evaluation } from 'evalgate/lib/types/index.js';",
    '```',
    '',
  ].join('\n'),
  'canary.md',
);

let checked: ReturnType<typeof typeCheckBlocks> | undefined;
/** One program for every block (the compiler's start-up is most of the time), made once. */
function results(): ReturnType<typeof typeCheckBlocks> {
  checked ??= typeCheckBlocks([...docBlocks, ...canaries]);
  return checked;
}

void describe('docs TypeScript examples', () => {
  void it('checks the built package, through its exports', () => {
    assert.ok(
      existsSync(join(repoRoot, 'lib', 'index.d.ts')),
      'lib/index.d.ts is missing: run `npm run build` first',
    );
    assert.ok(docBlocks.length >= 6, `only ${docBlocks.length} TypeScript blocks found`);
    assert.deepEqual(results().other, []);
  });

  void it('fails a wrong example, at its doc line, with the compiler message', () => {
    const [wrongType, unexported] = results().byBlock.slice(docBlocks.length);
    assert.match(wrongType?.join('\n') ?? '', /^canary\.md:6:\d+: TS\d+: .*'retries'/);
    assert.match(unexported?.join('\n') ?? '', /^canary\.md:10:\d+: TS2307: .*evalgate\/lib/);
  });

  void it('skips no fence that is meant as TypeScript (a variant spelling, ~~~, an info string)', () => {
    // Every opening fence of the docs, with its info string; a TypeScript one the block reader
    // does not take (```TS, ```ts title=x, ~~~ts, ```tsx) would otherwise go unchecked.
    const unread = docFiles.flatMap((file) =>
      readFileSync(join(repoRoot, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => {
          const info = /^\s*(?:`{3,}|~{3,})\s*(\S.*)$/.exec(line)?.[1]?.trim();
          const meant = info !== undefined && /^(ts|tsx|mts|cts|typescript)\b/i.test(info);
          const read = /^\s*```(?:ts|typescript)\s*$/.test(line);
          return meant && !read ? [`${file}:${i + 1}: ${line.trim()}`] : [];
        }),
    );
    assert.deepEqual(unread, []);
  });

  docBlocks.forEach((block, index) => {
    void it(`${where(block)} type-checks`, () => {
      const messages = results().byBlock[index] ?? [];
      assert.equal(messages.length, 0, `\n${messages.join('\n')}`);
    });
  });
});
