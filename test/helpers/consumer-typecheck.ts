/**
 * Type-checking a consumer project of evalgate with the repo's own `tsc`, as a user's strict
 * TypeScript project would import it, without building or packing it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, scratch, writeFiles } from './cli.ts';

/** The repo's TypeScript compiler (run with `process.execPath`). */
export const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** Compiler messages of `tsc -p project`; '' when it type-checks. */
export function typeErrors(project: string): string {
  try {
    execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/**
 * The tsconfig.json of a strict ES-module consumer (`nodenext`) checking `files`, its
 * `import … from 'evalgate'` resolved to `entry` (a path under the repo's src/, e.g.
 * `['index.ts']`); `options` are added to the compiler options.
 */
export function consumerTsconfig(
  files: string[],
  entry: string[],
  options: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2023',
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules', '@types')],
      allowImportingTsExtensions: true,
      paths: { evalgate: [join(repoRoot, 'src', ...entry)] },
      ...options,
    },
    files,
  });
}

/**
 * Compiler messages of a scratch ES-module consumer whose one file, `suite.ts`, holds `source`
 * importing 'evalgate' (src/index.ts); '' when it type-checks.
 */
export function suiteTypeErrors(source: string): string {
  const project = scratch();
  writeFiles(project, {
    'package.json': '{ "private": true, "type": "module" }\n',
    'suite.ts': source,
    'tsconfig.json': consumerTsconfig(['suite.ts'], ['index.ts'], { skipLibCheck: true }),
  });
  return typeErrors(project);
}

/**
 * Type-checks `files` of `project` as a strict `nodenext` ES-module consumer of the shipped
 * declarations (its `node_modules/evalgate`); throws with the compiler's messages when they do
 * not type-check.
 */
export function typeCheckShipped(project: string, files: string[]): void {
  execFileSync(
    process.execPath,
    [
      tsc,
      '--strict',
      '--noEmit',
      '--types',
      'node',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      ...files,
    ],
    { cwd: project, encoding: 'utf8', stdio: 'pipe' },
  );
}

/**
 * A scratch ES-module project whose `evalgate` is this repo as installed (its built lib/ and
 * declarations, through the package's exports), with Node's types beside it: a consumer of what
 * ships, for {@link typeCheckShipped} and for importing the built package.
 */
export function shippedConsumer(): string {
  const project = scratch();
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(repoRoot, join(project, 'node_modules', 'evalgate'), 'dir');
  symlinkSync(
    join(repoRoot, 'node_modules', '@types', 'node'),
    join(project, 'node_modules', '@types', 'node'),
    'dir',
  );
  writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
  return project;
}
