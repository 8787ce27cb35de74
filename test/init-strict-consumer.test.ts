/**
 * The code `evals init` writes type-checks in a user's strict TypeScript project, whatever the
 * starter: `tsc --noEmit` over the whole project (its JavaScript too, with `checkJs`) must not
 * fail because of the files init added, under the options strict projects turn on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STARTERS, type StarterName } from '../src/cli/init-templates.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { consumerTsconfig, typeErrors } from './helpers/consumer-typecheck.ts';

/** Options beyond `strict` that projects (Angular's defaults, @tsconfig/strictest) set. */
const STRICTEST = {
  verbatimModuleSyntax: true,
  noPropertyAccessFromIndexSignature: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noFallthroughCasesInSwitch: true,
  allowJs: true,
  checkJs: true,
  skipLibCheck: true,
};

describe('evals init in a strict TypeScript project', () => {
  for (const name of Object.keys(STARTERS) as StarterName[]) {
    const code = Object.keys(STARTERS[name].files).filter((file) => /\.(?:ts|mjs)$/.test(file));
    if (code.length === 0) continue;
    it(`${name}: ${code.join(', ')} type-check`, () => {
      const project = scratch();
      writeFiles(project, {
        ...STARTERS[name].files,
        'package.json': '{ "private": true, "type": "module" }\n',
        // The types the starters import live in src/types (which imports nothing).
        'tsconfig.json': consumerTsconfig(code, ['types', 'index.ts'], STRICTEST),
      });
      assert.equal(typeErrors(project), '');
    });
  }
});
