/**
 * The YAML examples of README.md and docs/*.md, read from the markdown at test time: every block
 * shaped as an evals.yaml (or a part of one) passes `evals validate` once completed into a
 * minimal project, and every `with:` key given to the evalgate Action is one of its inputs.
 * docs/evaluators.md is left to evaluators-registry.test.ts. A block that is deliberately not a
 * valid config is skipped only when the doc says so: `<!-- not-a-config -->` on the line before
 * its fence. The command lines the docs show use only options their command has, and every
 * option of every command is named where docs/cli.md (or docs/testsets.md) describes it, and
 * every key of the config schema is named in docs/config.md.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml, stringify } from 'yaml';
import { readSettings } from '../src/action/settings.ts';
import type { CommandSpec } from '../src/cli/command-spec.ts';
import { COMMANDS } from '../src/cli/commands.ts';
import { TESTSET_COMMANDS } from '../src/cli/testset/commands.ts';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const SKIP_MARKER = '<!-- not-a-config -->';

interface Block {
  where: string;
  text: string;
}

/** The ```yaml blocks of `file` (relative to the repo), dedented, without the marked ones. */
function yamlBlocks(markdown: string, file: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(yaml|yml)\s*$/.exec(lines[i] ?? '');
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? ''); i++) {
      body.push((lines[i] ?? '').slice((fence[1] ?? '').length));
    }
    if ((lines[start - 1] ?? '').trim() === SKIP_MARKER) continue;
    blocks.push({ where: `${file}:${start + 1}`, text: dedent(body).join('\n') + '\n' });
  }
  return blocks;
}

/** Removes the indent every line of YAML content shares (comment lines do not count). */
function dedent(lines: string[]): string[] {
  const indents = lines
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .map((line) => /^ */.exec(line)?.[0].length ?? 0);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => (line.slice(0, cut).trim() === '' ? line.slice(cut) : line));
}

type Yaml = Record<string, unknown>;

function isObject(value: unknown): value is Yaml {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A GitHub workflow, or a part of one (a list of steps). */
function isWorkflow(value: unknown): boolean {
  if (isObject(value)) return 'jobs' in value || 'on' in value;
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((step) => isObject(step) && ('uses' in step || 'run' in step))
  );
}

/** Every step object under `value` that uses the evalgate Action. */
function actionSteps(value: unknown, found: Yaml[] = []): Yaml[] {
  if (Array.isArray(value)) for (const item of value) actionSteps(item, found);
  else if (isObject(value)) {
    if (typeof value.uses === 'string' && value.uses.startsWith('evalgate/evalgate')) {
      found.push(value);
    }
    for (const item of Object.values(value)) actionSteps(item, found);
  }
  return found;
}

/**
 * The whole evals.yaml a block stands for: a config as it is (`version: 1` added), a list of
 * suites, or the keys of one suite; each suite gets an id, a testset and a function when the
 * block leaves them out.
 */
function completeConfig(value: unknown): Yaml {
  let config: Yaml;
  if (Array.isArray(value)) config = { suites: value };
  else if (isObject(value) && ('suites' in value || 'version' in value || 'defaults' in value)) {
    config = { ...value };
  } else config = { suites: [value] };
  config.version ??= 1;
  config.suites = ((config.suites as Yaml[] | undefined) ?? []).map((suite, index) => {
    const complete: Yaml = { id: `doc${index}`, ...suite };
    complete.testset ??= { path: 'doc-cases.jsonl' };
    // `output:` (recorded outputs) is the third way to get an output, beside function and target.
    const hasOutput = 'function' in complete || 'target' in complete || 'output' in complete;
    if (!hasOutput) complete.function = './doc.mjs#fn';
    return complete;
  });
  return config;
}

const MODULE_PATH = /^\.{1,2}\/[\w./-]+\.(?:ts|mts|cts|js|mjs|cjs)$/;
const DATA_PATH = /^[\w./-]+\.(?:csv|jsonl|json|md|txt)$/;

/**
 * Stub files for what `config` names: testsets with a column for every `{{ case.x }}` of the
 * block, modules exporting each name it uses, prompt files.
 */
function stubFiles(config: Yaml, blockText: string): Record<string, string> {
  // A suite's `output:` names the column of recorded outputs.
  const outputs = ((config.suites as Yaml[] | undefined) ?? []).flatMap((suite) =>
    typeof suite.output === 'string' ? [suite.output] : [],
  );
  const columns = [
    ...new Set([
      ...[...blockText.matchAll(/case\.([A-Za-z_]\w*)/g)].map((m) => m[1] ?? ''),
      ...outputs,
    ]),
  ];
  if (columns.length === 0) columns.push('question');
  const row = Object.fromEntries(columns.map((column) => [column, 'x']));
  const exports = new Map<string, Set<string>>();
  const files: Record<string, string> = {};
  const visit = (value: unknown, key: string): void => {
    if (Array.isArray(value)) for (const item of value) visit(item, key);
    else if (isObject(value)) for (const [k, item] of Object.entries(value)) visit(item, k);
    else if (typeof value === 'string' && (key === 'function' || key === 'use')) {
      const [path = '', name = 'default'] = value.split('#');
      if (!MODULE_PATH.test(path)) return;
      exports.set(path, (exports.get(path) ?? new Set()).add(name));
    } else if (typeof value === 'string' && DATA_PATH.test(value) && !value.startsWith('/')) {
      files[value] = value.endsWith('.csv')
        ? `${columns.join(',')}\n${columns.map(() => 'x').join(',')}\n`
        : value.endsWith('.jsonl')
          ? `${JSON.stringify(row)}\n`
          : value.endsWith('.json')
            ? JSON.stringify([row])
            : 'Answer: {{ case.' + (columns[0] ?? 'question') + ' }}\n';
    }
  };
  visit(config, '');
  files['doc-cases.jsonl'] = `${JSON.stringify(row)}\n`;
  for (const [path, names] of exports) {
    // A function serves both as the function under test and as a function evaluator.
    files[path] = [...names]
      .map((name) =>
        name === 'default'
          ? 'export default function () { return { score: 1 }; }'
          : `export function ${name}() { return { score: 1 }; }`,
      )
      .join('\n');
  }
  return files;
}

const docFiles = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'evaluators.md')
    .map((name) => `docs/${name}`),
];
const blocks = docFiles.flatMap((file) =>
  yamlBlocks(readFileSync(join(repoRoot, file), 'utf8'), file),
);

/** The block's value, or the YAML error as data so that one bad block fails only its own test. */
function parseBlock(block: Block): { value: unknown } | { error: string } {
  try {
    return { value: parseYaml(block.text) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
const parsed = blocks.map((block) => ({ block, parsed: parseBlock(block) }));

function actionInputs(): Set<string> {
  const action = parseYaml(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as {
    inputs: Yaml;
  };
  return new Set(Object.keys(action.inputs));
}

void describe('docs examples', () => {
  void it('finds both kinds of block, each of them YAML', () => {
    for (const { block, parsed: result } of parsed) {
      assert.ok(!('error' in result), `${block.where}: ${'error' in result ? result.error : ''}`);
    }
    const values = parsed.flatMap(({ parsed: result }) =>
      'value' in result ? [result.value] : [],
    );
    assert.ok(values.filter(isWorkflow).length >= 5, 'too few workflow blocks found');
    assert.ok(values.filter((v) => v !== null && !isWorkflow(v)).length >= 10, 'too few configs');
  });

  void it('gives the evalgate Action only inputs action.yml declares, with values it accepts', () => {
    const inputs = actionInputs();
    let checked = 0;
    for (const { block, parsed: result } of parsed) {
      if (!('value' in result)) continue;
      for (const step of actionSteps(result.value)) {
        const given = (step.with as Yaml | undefined) ?? {};
        for (const key of Object.keys(given)) {
          assert.ok(inputs.has(key), `${block.where}: with: ${key} is not an input of action.yml`);
        }
        // Each value as the runner passes it, a string; an expression is known only in a run.
        const input = (name: string): string => {
          const value = given[name];
          const text =
            value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
          return text.includes('${{') ? '' : text;
        };
        const settings = readSettings(input, '/workspace');
        assert.ok(settings.ok, `${block.where}: ${settings.ok ? '' : settings.errors.join('; ')}`);
        checked++;
      }
    }
    assert.ok(checked >= 8, `only ${checked} Action steps checked`);
  });

  for (const { block, parsed: result } of parsed) {
    if (!('value' in result)) continue;
    const value = result.value;
    // null: a block of comments only (the schema line for editors), with nothing to validate.
    if (value === null || isWorkflow(value)) continue;
    void it(`${block.where} is a valid evals.yaml`, async () => {
      const config = completeConfig(value);
      const dir = scratch();
      writeFiles(dir, { ...stubFiles(config, block.text), 'evals.yaml': stringify(config) });
      // A pin names the reader's rows: pin the stub's, as `evals testset pin` would.
      if (block.text.includes('revision:')) {
        const pin = await runInProcess(['testset', 'pin'], dir);
        assert.equal(pin.code, 0, `${block.where}: pin: ${pin.stderr}`);
      }
      // Every `${VAR}` the block reads is set, as the reader's environment would have it.
      const env = Object.fromEntries(
        [...block.text.matchAll(/\$\{([A-Za-z_]\w*)/g)].map((m) => [
          m[1] ?? '',
          'doc-example-value',
        ]),
      );
      const result = await runInProcess(['validate'], dir, {
        OPENAI_API_KEY: 'sk-doc-example',
        ...env,
      });
      assert.equal(result.code, 0, `${block.where}:\n${stringify(config)}\n${result.stderr}`);
    });
  }
});

/** The long and short names of a command's options, `--help` included. */
function optionNames(spec: CommandSpec): Set<string> {
  return new Set(
    Object.entries(spec.options).flatMap(([name, option]) =>
      option.short === undefined ? [`--${name}`] : [`--${name}`, `-${option.short}`],
    ),
  );
}

/** Each inline code span of `markdown`, and each line of its sh blocks without its comment. */
function commandTexts(markdown: string, file: string): { where: string; text: string }[] {
  const texts: { where: string; text: string }[] = [];
  let shell = false;
  markdown.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    const fence = /^\s*```(\w*)/.exec(line);
    if (fence) shell = !shell && ['sh', 'bash', 'shell'].includes(fence[1] ?? '');
    else if (shell) texts.push({ where, text: line.replace(/(^|\s)#.*$/, '') });
    else for (const span of line.matchAll(/`([^`]+)`/g)) texts.push({ where, text: span[1] ?? '' });
  });
  return texts;
}

void describe('docs command lines', () => {
  const markdown = new Map(
    docFiles.map((file) => [file, readFileSync(join(repoRoot, file), 'utf8')]),
  );
  markdown.set('docs/evaluators.md', readFileSync(join(repoRoot, 'docs/evaluators.md'), 'utf8'));

  void it('give each evals command only options it has', () => {
    const unknown: string[] = [];
    let checked = 0;
    for (const [file, text] of markdown) {
      for (const { where, text: line } of commandTexts(text, file)) {
        // `evals show RESULTS.json --failed`, `npx evals testset pin --check`: up to a pipe or `;`.
        for (const m of line.matchAll(/\bevals (testset )?([a-z]+)((?: +[^ |;&]+)*)/g)) {
          const specs: Record<string, CommandSpec> = m[1] ? TESTSET_COMMANDS : COMMANDS;
          const spec = specs[m[2] ?? ''];
          if (spec === undefined) continue; // prose such as "evals progress", not a command
          const known = optionNames(spec);
          for (const flag of (m[3] ?? '').matchAll(/(?<=[\s[])--?[a-z][\w-]*/g)) {
            checked++;
            if (!known.has(flag[0])) unknown.push(`${where}: ${spec.name} has no ${flag[0]}`);
          }
        }
      }
    }
    assert.deepEqual(unknown, []);
    assert.ok(checked >= 50, `only ${checked} options on command lines checked`);
  });

  void it('name every option of every command where docs/cli.md or docs/testsets.md describes it', () => {
    const rows = (file: string, start: string): string =>
      (markdown.get(file) ?? '')
        .split('\n')
        .filter((line) => line.startsWith(start))
        .join('\n');
    const missing: string[] = [];
    const check = (spec: CommandSpec, where: string, text: string): void => {
      for (const [name, option] of Object.entries(spec.options)) {
        if (name === 'help') continue;
        const named = [`--${name}`, ...(option.short === undefined ? [] : [`-${option.short} `])];
        if (!named.some((flag) => text.includes(flag)))
          missing.push(`${spec.name} --${name} (${where})`);
      }
    };
    for (const [word, spec] of Object.entries(COMMANDS)) {
      if (word === 'testset') continue;
      check(
        spec,
        'docs/cli.md',
        rows('docs/cli.md', `| \`evals ${word} `) + rows('docs/cli.md', `| \`evals ${word}\``),
      );
    }
    // The identity options of revision, show, diff and log are described once, under the table.
    for (const spec of Object.values(TESTSET_COMMANDS)) {
      check(spec, 'docs/testsets.md', markdown.get('docs/testsets.md') ?? '');
    }
    assert.deepEqual(missing, []);
  });
});

void describe('docs/config.md', () => {
  void it('names every key of schemas/evals.schema.json', () => {
    const schema: unknown = JSON.parse(
      readFileSync(join(repoRoot, 'schemas/evals.schema.json'), 'utf8'),
    );
    const keys = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) for (const item of value) visit(item);
      else if (isObject(value)) {
        if (isObject(value.properties))
          for (const key of Object.keys(value.properties)) keys.add(key);
        for (const item of Object.values(value)) visit(item);
      }
    };
    visit(schema);
    const doc = readFileSync(join(repoRoot, 'docs/config.md'), 'utf8');
    // `key`, `key:`, a path such as `evaluators.<id>.passRate`, or a list such as `{lt, lte}`.
    const missing = [...keys].filter((key) => !new RegExp(`[\`.{ ]${key}[\`:.,}]`).test(doc));
    assert.ok(keys.size >= 60, `only ${keys.size} keys found in the schema`);
    assert.deepEqual(missing, []);
  });
});

void describe('docs/artifact.md', () => {
  void it('names every top-level key of schemas/results.schema.json', () => {
    const schema = JSON.parse(
      readFileSync(join(repoRoot, 'schemas/results.schema.json'), 'utf8'),
    ) as { properties: Record<string, unknown> };
    const doc = readFileSync(join(repoRoot, 'docs/artifact.md'), 'utf8');
    const keys = Object.keys(schema.properties);
    assert.ok(keys.length >= 20, `only ${keys.length} top-level keys found in the schema`);
    const missing = keys.filter((key) => !new RegExp(`[\`.{ ]${key}[\`:.,}]`).test(doc));
    assert.deepEqual(missing, []);
  });
});
