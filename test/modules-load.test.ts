import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  createModuleLoader,
  type ModuleError,
  type ModuleLoader,
} from '../src/bind/modules/loader.ts';
import { parseModuleSpec } from '../src/config/module-spec.ts';

// Specs are written relative to the fixtures folder, as a config next to them would write them.
const fixtures = fileURLToPath(new URL('./fixtures/modules/', import.meta.url));
const abs = (path: string): string => join(fixtures, path);

/** Per-file evaluation counts kept by the counting fixtures. */
function evaluations(name: string): number {
  const counts = (globalThis as { __evalgateCounted?: Record<string, number> }).__evalgateCounted;
  return counts?.[name] ?? 0;
}

async function value(loader: ModuleLoader, spec: string): Promise<unknown> {
  const result = await loader.loadExport(parseModuleSpec(spec, fixtures));
  if (!result.ok)
    assert.fail(`expected ${spec} to load, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function failure(loader: ModuleLoader, spec: string): Promise<ModuleError> {
  const result = await loader.loadExport(parseModuleSpec(spec, fixtures));
  if (result.ok) assert.fail(`expected ${spec} to fail, it loaded`);
  return result.error;
}

async function call(loader: ModuleLoader, spec: string, ...args: unknown[]): Promise<unknown> {
  const fn = await value(loader, spec);
  assert.equal(typeof fn, 'function', `${spec} is a function`);
  return (fn as (...a: unknown[]) => unknown)(...args);
}

void describe('loading exports from an ESM-scope package', () => {
  void it('loads a named export of a .ts file that imports ./helper and ./format.js (format.ts)', async () => {
    const loader = createModuleLoader();
    assert.equal(
      await call(loader, './esm-scope/answer.ts#answer', { testCase: { n: 21 } }),
      'answer=42',
    );
    assert.equal(await call(loader, './esm-scope/answer.ts#helper', 4), 8);
  });

  void it('loads the default export when the spec has no #, or #default', async () => {
    const loader = createModuleLoader();
    assert.equal(await call(loader, './esm-scope/with-default.ts'), 'esm default');
    assert.equal(await call(loader, './esm-scope/with-default.ts#default'), 'esm default');
    assert.equal(await value(loader, './esm-scope/with-default.ts#named'), 'named export');
  });

  void it('loads named and default exports of plain JavaScript', async () => {
    const loader = createModuleLoader();
    assert.equal(await call(loader, './esm-scope/plain.js#answer'), 'esm js named');
    assert.equal(await call(loader, './esm-scope/plain.js'), 'esm js default');
  });

  void it('does not treat properties of an ES module default object as named exports', async () => {
    const loader = createModuleLoader();
    const error = await failure(loader, './esm-scope/default-object.js#answer');
    assert.equal(error.code, 'module.export-missing');
    assert.equal(
      error.message,
      './esm-scope/default-object.js has no export "answer"; it has only a default export (use ./esm-scope/default-object.js without #answer)',
    );
  });

  void it('treats .cts as CommonJS whatever the package type: its default is module.exports.default', async () => {
    const loader = createModuleLoader();
    assert.equal(await call(loader, './esm-scope/legacy.cts'), 'cts default');
    assert.equal(await call(loader, './esm-scope/legacy.cts#named'), 'cts named');
  });
});

void describe('loading exports from a CommonJS-scope package', () => {
  void it('finds named exports Node detects, and module.exports as the default', async () => {
    const loader = createModuleLoader();
    assert.equal(await call(loader, './cjs-scope/plain.js#answer'), 'cjs js named');
    const exports = await value(loader, './cjs-scope/plain.js');
    assert.deepEqual(Object.keys(exports as object).sort(), ['answer', 'helper']);
  });

  void it('finds named exports that exist only on module.exports', async () => {
    const loader = createModuleLoader();
    assert.equal(await call(loader, './cjs-scope/hidden.js#answer'), 'hidden named');
  });

  void it('takes module.exports itself as the default when it is a function', async () => {
    const loader = createModuleLoader();
    assert.equal(await call(loader, './cjs-scope/main-fn.js'), 'cjs js default');
    assert.equal(await call(loader, './cjs-scope/main-fn.js#extra'), 'extra');
  });

  void it('loads TypeScript compiled to CommonJS: named exports, and export default (not module.exports)', async () => {
    const loader = createModuleLoader();
    assert.equal(
      await call(loader, './cjs-scope/answer.ts#answer', { testCase: { n: 5 } }),
      'cjs answer=10',
    );
    assert.equal(await call(loader, './cjs-scope/answer.ts'), 'cjs ts default');
  });

  void it('says a CommonJS TypeScript module without export default has no default export', async () => {
    const loader = createModuleLoader();
    const error = await failure(loader, './cjs-scope/named-only.ts');
    assert.equal(error.code, 'module.export-missing');
    assert.equal(
      error.message,
      './cjs-scope/named-only.ts has no default export; its exports are: answer, helper (name one with ./cjs-scope/named-only.ts#answer)',
    );
  });

  void it('treats a package.json without "type" as CommonJS', async () => {
    const loader = createModuleLoader();
    assert.equal(await call(loader, './notype-scope/plain.js#answer'), 'notype js named');
    assert.equal(await call(loader, './notype-scope/answer.ts#answer', { testCase: { n: 3 } }), 6);
    assert.equal(await call(loader, './notype-scope/answer.ts'), 'notype ts default');
  });
});

void describe('one load per file', () => {
  void it('imports a TypeScript file once for several references, even concurrent ones', async () => {
    const loader = createModuleLoader();
    const before = evaluations('counted.ts');
    await Promise.all([
      value(loader, './esm-scope/counted.ts#first'),
      value(loader, './esm-scope/counted.ts#second'),
    ]);
    await value(loader, './esm-scope/counted.ts#first');
    assert.equal(evaluations('counted.ts'), before + 1);
  });

  void it('imports a CommonJS-scope TypeScript file once', async () => {
    const loader = createModuleLoader();
    const before = evaluations('cjs-scope/counted.ts');
    await Promise.all([
      value(loader, './cjs-scope/counted.ts#first'),
      value(loader, './cjs-scope/counted.ts#second'),
    ]);
    assert.equal(evaluations('cjs-scope/counted.ts'), before + 1);
  });

  void it('imports a JavaScript file once', async () => {
    const loader = createModuleLoader();
    const before = evaluations('plain-counted.mjs');
    await Promise.all([
      value(loader, './esm-scope/plain-counted.mjs#first'),
      value(loader, './esm-scope/plain-counted.mjs#second'),
    ]);
    assert.equal(evaluations('plain-counted.mjs'), before + 1);
  });

  void it('gives two TypeScript files one instance of a helper they both import', async () => {
    const loader = createModuleLoader();
    const before = evaluations('shared-state.ts');
    const a = (await value(loader, './esm-scope/uses-shared-a.ts#a')) as () => number;
    const b = (await value(loader, './esm-scope/uses-shared-b.ts#b')) as () => number;
    assert.equal(evaluations('shared-state.ts'), before + 1);
    assert.equal(a(), 1);
    assert.equal(b(), 2, 'b sees the state a changed');
  });
});

void describe('starting tsx lazily', () => {
  void it('does not start the TypeScript loader for JavaScript modules', async () => {
    const loader = createModuleLoader();
    await value(loader, './esm-scope/plain.js#answer');
    await value(loader, './cjs-scope/plain.js#answer');
    await failure(loader, './esm-scope/nothing-here.ts');
    assert.equal(loader.typescriptStartupMs(), null);
  });

  void it('starts it on the first TypeScript module and reports what that cost', async () => {
    const loader = createModuleLoader();
    await value(loader, './esm-scope/answer.ts#answer');
    const startup = loader.typescriptStartupMs();
    assert.equal(typeof startup, 'number');
    assert.ok((startup ?? -1) >= 0);
  });
});

void describe('module not found', () => {
  void it('names the path as written and resolved, and suggests a close name', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/answr.ts#answer');
    assert.deepEqual(error, {
      code: 'module.not-found',
      message: `module not found: ./esm-scope/answr.ts (resolved to ${abs('esm-scope/answr.ts')}); did you mean ./esm-scope/answer.ts?`,
      file: abs('esm-scope/answr.ts'),
    });
  });

  void it('suggests the file with another extension (or with one, when none was written)', async () => {
    const loader = createModuleLoader();
    const wrongExt = await failure(loader, './esm-scope/plain.ts#answer');
    assert.equal(
      wrongExt.message,
      `module not found: ./esm-scope/plain.ts (resolved to ${abs('esm-scope/plain.ts')}); did you mean ./esm-scope/plain.js?`,
    );
    const noExt = await failure(loader, './esm-scope/answer#answer');
    assert.match(noExt.message, /; did you mean \.\/esm-scope\/answer\.ts\?$/);
  });

  void it('says when the path is a folder and suggests its index file', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/folder#answer');
    assert.equal(error.code, 'module.not-found');
    assert.equal(
      error.message,
      `module not found: ./esm-scope/folder (resolved to ${abs('esm-scope/folder')}, which is a folder); did you mean ./esm-scope/folder/index.ts?`,
    );
  });

  void it('suggests nothing when nothing is close', async () => {
    const error = await failure(createModuleLoader(), './no-such-dir/app.ts');
    assert.equal(
      error.message,
      `module not found: ./no-such-dir/app.ts (resolved to ${abs('no-such-dir/app.ts')})`,
    );
  });
});

void describe('export missing', () => {
  void it('lists the exports the module has', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/answer.ts#answr');
    assert.deepEqual(error, {
      code: 'module.export-missing',
      message: './esm-scope/answer.ts has no export "answr"; its exports are: answer, helper',
      file: abs('esm-scope/answer.ts'),
    });
  });

  void it('says "no default export" for a spec without #, and how to name an export', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/answer.ts');
    assert.equal(
      error.message,
      './esm-scope/answer.ts has no default export; its exports are: answer, helper (name one with ./esm-scope/answer.ts#answer)',
    );
  });

  void it('mentions a default export next to the named ones', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/with-default.ts#nope');
    assert.equal(
      error.message,
      './esm-scope/with-default.ts has no export "nope"; its exports are: named and a default export',
    );
  });

  void it('says when a module has only a default export', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/only-default.ts#answer');
    assert.equal(
      error.message,
      './esm-scope/only-default.ts has no export "answer"; it has only a default export (use ./esm-scope/only-default.ts without #answer)',
    );
  });

  void it('says when a module has no exports at all', async () => {
    const loader = createModuleLoader();
    const named = await failure(loader, './esm-scope/empty.ts#answer');
    assert.equal(named.message, './esm-scope/empty.ts has no export "answer"; it has no exports');
    const byDefault = await failure(loader, './esm-scope/empty.ts');
    assert.equal(
      byDefault.message,
      './esm-scope/empty.ts has no default export; it has no exports',
    );
  });

  void it('lists CommonJS exports without announcing module.exports as an extra default', async () => {
    const loader = createModuleLoader();
    const plain = await failure(loader, './cjs-scope/plain.js#nope');
    assert.equal(
      plain.message,
      './cjs-scope/plain.js has no export "nope"; its exports are: answer, helper',
    );
    const ts = await failure(loader, './cjs-scope/answer.ts#nope');
    assert.equal(
      ts.message,
      './cjs-scope/answer.ts has no export "nope"; its exports are: answer and a default export',
    );
  });
});

void describe('syntax errors', () => {
  void it('points at the line and column of a TypeScript syntax error', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/syntax-error.ts#answer');
    assert.deepEqual(error, {
      code: 'module.syntax',
      message: 'syntax error in ./esm-scope/syntax-error.ts: Expected ")" but found ";"',
      file: abs('esm-scope/syntax-error.ts'),
      line: 5,
      col: 24,
    });
  });

  void it('keeps the .mts name that tsx reports as .ts', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/syntax-error.mts#answer');
    assert.equal(error.file, abs('esm-scope/syntax-error.mts'));
    assert.equal(
      error.message,
      'syntax error in ./esm-scope/syntax-error.mts: Expected ")" but found ";"',
    );
    assert.equal(error.line, 5);
  });

  void it('points into the imported file when the syntax error is in a dependency', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/imports-broken.ts#answer');
    const dep = abs('esm-scope/dep-syntax-error.ts');
    assert.deepEqual(error, {
      code: 'module.syntax',
      message: `syntax error in ./${relative(process.cwd(), dep)}: Unexpected "=" (imported from ./esm-scope/imports-broken.ts)`,
      file: dep,
      line: 3,
      col: 23,
    });
  });

  void it('reports a JavaScript syntax error (an ES module one has no readable position)', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/plain-syntax-error.mjs#answer');
    assert.deepEqual(error, {
      code: 'module.syntax',
      message: 'syntax error in ./esm-scope/plain-syntax-error.mjs: Unexpected end of input',
      file: abs('esm-scope/plain-syntax-error.mjs'),
    });
  });

  void it('reports the line of a CommonJS JavaScript syntax error', async () => {
    const error = await failure(createModuleLoader(), './cjs-scope/plain-syntax-error.js#answer');
    assert.equal(error.code, 'module.syntax');
    assert.equal(error.file, abs('cjs-scope/plain-syntax-error.js'));
    assert.equal(error.line, 4, 'the end of input after the unclosed parameter list');
    assert.ok(
      error.message.startsWith('syntax error in ./cjs-scope/plain-syntax-error.js: '),
      error.message,
    );
  });
});

void describe('modules that throw while loading', () => {
  void it('reports the thrown message and where the TypeScript file threw', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/throws.ts#answer');
    assert.deepEqual(error, {
      code: 'module.load-failed',
      message: './esm-scope/throws.ts failed to load: OPENAI_API_KEY is not set',
      file: abs('esm-scope/throws.ts'),
      line: 4,
      col: 33,
    });
  });

  void it('says how to install a package the module imports but cannot find', async () => {
    const error = await failure(
      createModuleLoader(),
      './esm-scope/imports-missing-package.ts#answer',
    );
    assert.equal(error.code, 'module.load-failed');
    assert.match(error.message, /evalgate-test-package-that-is-not-installed/);
    assert.match(error.message, /npm i -D evalgate-test-package-that-is-not-installed\)$/);
  });

  void it('names the error type when it is not a plain Error', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/plain-throws.mjs#answer');
    assert.deepEqual(error, {
      code: 'module.load-failed',
      message: './esm-scope/plain-throws.mjs failed to load: TypeError: cannot start the client',
      file: abs('esm-scope/plain-throws.mjs'),
      line: 3,
      col: 7,
    });
  });

  void it('reports a CommonJS TypeScript throw, with its position when Node can map it', async () => {
    const error = await failure(createModuleLoader(), './cjs-scope/throws.ts#answer');
    assert.equal(error.code, 'module.load-failed');
    assert.equal(
      error.message,
      './cjs-scope/throws.ts failed to load: RangeError: model name is not configured',
    );
    // Node 20 runs tsx's CommonJS output from a data: URL whose positions are not the file's;
    // then there is no position rather than a wrong one.
    if (error.line !== undefined) assert.deepEqual([error.line, error.col], [3, 7]);
  });

  void it('treats a SyntaxError thrown by running code as a load failure, not a syntax error', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/parses-bad-json.ts#settings');
    assert.equal(error.code, 'module.load-failed');
    assert.match(
      error.message,
      /^\.\/esm-scope\/parses-bad-json\.ts failed to load: SyntaxError: /,
    );
    assert.equal(error.line, 2);
  });

  void it('reports an import inside the module that cannot be found as a load failure', async () => {
    const error = await failure(createModuleLoader(), './esm-scope/missing-dep.ts#answer');
    assert.equal(error.code, 'module.load-failed');
    assert.match(error.message, /^\.\/esm-scope\/missing-dep\.ts failed to load: .*no-such-helper/);
  });

  void it('reports the failure for every reference to the failing file', async () => {
    const loader = createModuleLoader();
    const first = await failure(loader, './esm-scope/throws.ts#answer');
    const second = await failure(loader, './esm-scope/throws.ts');
    assert.equal(first.message, second.message);
  });
});
