/**
 * Seeded generator of mutated projects (a config and a testset) for the fuzz test
 * (`test/fuzz.test.ts`) and the long fuzz run (`npm run fuzz`). Each project starts from a valid
 * one and is mutated as a user or an attacker might: text edits (a character dropped, a line
 * repeated, a token of YAML, JSON or CSV syntax inserted) and value edits (a key renamed, a value
 * replaced with another kind, a template path changed). The same seed gives the same projects.
 */

/** A project to write into a folder: file name → text. `evals.yaml` is always there. */
export type FuzzProject = Record<string, string>;

/** A small deterministic PRNG (mulberry32): the same seed gives the same sequence. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CSV =
  'question,expected_intent,output,__tags__\nhi,greet,greet,smoke\nbye,leave,leave,\n"a, b",x,"x",\n';
const JSONL =
  '{"question": "hi", "expected_intent": "greet", "output": "greet"}\n{"question": "bye", "expected_intent": "leave", "output": "leave", "n": [1, {"a": 2}]}\n';
const JSON_ROWS =
  '[\n  {"question": "hi", "expected_intent": "greet", "output": "greet"},\n  {"question": "bye", "expected_intent": "leave", "output": "bye"}\n]\n';

const BASES: { config: string; testset: [name: string, text: string] }[] = [
  {
    config: `version: 1
defaults:
  concurrency: 2
  timeout: 5s
suites:
  - id: intents
    testset: { path: t.csv, tags: [smoke] }
    grid:
      style: [plain, warm]
    evaluators:
      - id: intent
        use: is-equals
        with: { expected: "{{case.expected_intent}}", actual: "{{output}}" }
        threshold: { gte: 0.5 }
      - use: has-all-substrings
        with: { substrings: ["e"], actual: "{{ output }}", ignoreCase: true }
    gate:
      minPassRate: 0.5
      evaluators:
        intent: { mean: { gte: 0.5 } }
`,
    testset: ['t.csv', CSV],
  },
  {
    config: `version: 1
suites:
  - id: rows
    testset: { path: t.jsonl }
    evaluators:
      - use: is-equals
        with: &opts { expected: '{{case["expected_intent"]}}' }
      - id: again
        use: is-equals
        with: *opts
      - use: regex
        with: { pattern: "^[a-z]+$", flags: i }
        not: false
`,
    testset: ['t.jsonl', JSONL],
  },
  {
    config: `version: 1
suites:
  - id: inline
    testset:
      cases:
        - { question: hi, expected_intent: greet, output: greet }
        - { question: bye, expected_intent: leave, output: leave }
    pass: any
    evaluators:
      - use: is-equals
        with: { expected: "{{case.expected_intent}}" }
        timeout: 2s
  - id: json
    testset: { path: t.json }
    trials: 2
    evaluators:
      - use: levenshtein
        with: { expected: "{{case.expected_intent}}" }
        threshold: { gte: 0.2 }
`,
    testset: ['t.json', JSON_ROWS],
  },
];

/** Syntax a mutation may insert: YAML structure, aliases, templates, env, odd characters. */
export const TOKENS = [
  '&a ',
  '*a',
  '<<: *a',
  '{',
  '}',
  '[',
  ']',
  ':',
  ': ',
  '- ',
  ',',
  '"',
  "'",
  '#',
  '|',
  '>',
  '\n',
  '\n  ',
  '\t',
  '  ',
  '${X}',
  '${HOME}',
  '$${',
  '{{case.question}}',
  '{{case.nope}}',
  '{{output.x}}',
  '{{params.style}}',
  '{{case["a b"]}}',
  '{{case.constructor}}',
  '{{',
  '}}',
  '\u202e',
  '\u2066',
  '\x1b[31m',
  '\0',
  '\ufeff',
  '日本',
  '1e309',
  '-1',
  '0',
  'null',
  '~',
  'true',
  '!!binary',
  '!!js/function',
  '? ',
  '---\n',
  '...\n',
  '%YAML 1.2\n',
  '%',
  '@',
  '`',
  'x'.repeat(300),
  '['.repeat(50),
  '{a: '.repeat(30),
];

/** Values a value edit puts in place of another. */
export const VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'x',
  'none',
  '0ms',
  '10s',
  'is-equals',
  'is-equal',
  './missing.ts#f',
  '{{case.expected_intent}}',
  '{{case.expected_intnt}}',
  '{{output}}',
  '{{ case["question"] }}',
  '{{case.items[0]}}',
  '{{params.style}}',
  '{{case.__proto__}}',
  [],
  [1, 2],
  ['a'],
  {},
  { gte: 2 },
  { lt: 0.5 },
  { a: { b: { c: [] } } },
  true,
  false,
];

export const KEYS = [
  'id',
  'use',
  'with',
  'threshold',
  'timeout',
  'concurrency',
  'grid',
  'gate',
  'testset',
  'path',
  'cases',
  'evaluators',
  'pass',
  'trials',
  'tags',
  'hash',
  'revision',
  'ref',
  'minPassRate',
  'mean',
  'passRate',
  'when',
  'not',
  'expected',
  'actual',
  'version',
  'suites',
  'defaults',
  'judge',
  'target',
  'function',
  'allowEmpty',
  'unknownKey',
  '__proto__',
  'constructor',
];

/** The `n`th project of the sequence seeded with `seed`. */
export function fuzzProject(seed: number, n: number): FuzzProject {
  const next = random(seed * 1_000_003 + n);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const base = pick(BASES);
  let config = base.config;
  let [testsetName, testset] = base.testset;
  const edits = 1 + Math.floor(next() * 4);
  for (let i = 0; i < edits; i++) {
    const target = next() < 0.75 ? 'config' : 'testset';
    if (target === 'config') config = mutate(config, next, pick);
    else testset = mutate(testset, next, pick);
  }
  // Now and then, a structure far bigger or deeper than any real file.
  if (next() < 0.03) config += `x: ${'['.repeat(3000)}\n`;
  if (next() < 0.02)
    config = config.replace('evaluators:', `k1: 1\n${'    kx: 1\n'.repeat(3)}    evaluators:`);
  if (next() < 0.03) testsetName = pick(['t.csv', 't.jsonl', 't.json', 't.txt']);
  return { 'evals.yaml': config, [testsetName]: testset };
}

/** One text edit of `text` (a character dropped, a token inserted, a line repeated, …). */
export function mutate(
  text: string,
  next: () => number,
  pick: <T>(items: readonly T[]) => T,
): string {
  const at = Math.floor(next() * (text.length + 1));
  const lines = text.split('\n');
  const line = Math.floor(next() * lines.length);
  switch (Math.floor(next() * 9)) {
    case 0: // drop a few characters
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 4));
    case 1: // insert a token
      return text.slice(0, at) + pick(TOKENS) + text.slice(at);
    case 2: // repeat a line
      lines.splice(line, 0, lines[line] ?? '');
      return lines.join('\n');
    case 3: // drop a line
      lines.splice(line, 1);
      return lines.join('\n');
    case 4: // swap two lines
      {
        const other = Math.floor(next() * lines.length);
        [lines[line], lines[other]] = [lines[other] ?? '', lines[line] ?? ''];
      }
      return lines.join('\n');
    case 5: // replace a value after a colon
      return replaceValue(lines, line, JSON.stringify(pick(VALUES)));
    case 6: // rename a key
      return lines
        .map((l, i) => (i === line ? l.replace(/[\w$-]+(?=:)/, pick(KEYS)) : l))
        .join('\n');
    case 7: // add an entry
      lines.splice(
        line,
        0,
        `${/^\s*/.exec(lines[line] ?? '')?.[0] ?? ''}${pick(KEYS)}: ${JSON.stringify(pick(VALUES))}`,
      );
      return lines.join('\n');
    default: // change the indentation
      lines[line] =
        next() < 0.5 ? ` ${lines[line] ?? ''}` : (lines[line] ?? '').replace(/^ {1,2}/, '');
      return lines.join('\n');
  }
}

function replaceValue(lines: string[], line: number, value: string): string {
  const text = lines[line] ?? '';
  const colon = text.indexOf(': ');
  if (colon === -1) return lines.join('\n');
  lines[line] = `${text.slice(0, colon + 2)}${value}`;
  return lines.join('\n');
}

/** A stack frame as Node prints it: what must never reach a user for any input. */
export const STACK_FRAME = /^\s+at .+(?:\(.*:\d+:\d+\)|:\d+:\d+)$/m;
