/**
 * Seeded mutated results artifacts for the artifact fuzz test (`test/fuzz-artifacts.test.ts`) and
 * `npm run fuzz -- --artifacts`. An artifact is input too: `show`, `compare`, `merge`, `report`,
 * `override`, `run --baseline` and `run --resume` read files that other runs, other versions,
 * other tools or a hand edit wrote. Each case starts from an artifact a real run wrote (the whole
 * run or one of two shards) and edits it as such a file gets damaged: text edits, a value of the
 * frame or of a case line replaced, a case line dropped, repeated or moved to another run, the
 * file cut short, the whole file re-laid-out on one line. The same seed gives the same cases.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../src/cli/main.ts';
import { KEYS, mutate, random, VALUES, type FuzzProject } from './fuzz-inputs.ts';

/** A config-only suite over two grid points: some cases pass, some fail. */
export const ARTIFACT_PROJECT: FuzzProject = {
  'evals.yaml': `version: 1
suites:
  - id: intents
    testset: { path: t.csv }
    hash: [question]
    grid:
      style: [plain, warm]
    evaluators:
      - id: exact
        use: is-equals
        with: { expected: "{{case.expected}}" }
      - id: close
        use: levenshtein
        with: { expected: "{{case.expected}}" }
        threshold: { gte: 0.5 }
    gate:
      minPassRate: 0.5
`,
  't.csv': 'question,expected,output\nhi,greet,greet\nbye,leave,leaf\n"a, b",x,y\nok,yes,yes\n',
};

/** The artifacts the mutations start from: the whole run and its two shards. */
export interface ArtifactBases {
  'base.json': string;
  's1.json': string;
  's2.json': string;
}

/** Runs {@link ARTIFACT_PROJECT} in this process (whole, then as two shards) and reads what it wrote. */
export async function artifactBases(): Promise<ArtifactBases> {
  const dir = mkdtempSync(join(tmpdir(), 'evalgate-fuzz-bases-'));
  try {
    for (const [name, text] of Object.entries(ARTIFACT_PROJECT))
      writeFileSync(join(dir, name), text);
    const quiet = { write: () => true };
    for (const [file, shard] of [
      ['base.json', []],
      ['s1.json', ['--shard', '1/2']],
      ['s2.json', ['--shard', '2/2']],
    ] as const) {
      const code = await cli(['run', 'evals.yaml', ...shard, '-o', file], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' },
        stdout: quiet,
        stderr: quiet,
      });
      // A shard's own gate may fail (exit 1): it still wrote its artifact.
      if (code !== 0 && code !== 1) throw new Error(`the base run for ${file} exited ${code}`);
    }
    const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
    return {
      'base.json': read('base.json'),
      's1.json': read('s1.json'),
      's2.json': read('s2.json'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Values an artifact holds, for edits that put one where another was. */
const ARTIFACT_VALUES: unknown[] = [
  'pass',
  'fail',
  'error',
  'plain',
  'intents',
  'exact',
  2,
  1,
  0.5,
  -0.0001,
  Number.MAX_SAFE_INTEGER + 2,
  'x'.repeat(5000),
  '\u001b[2J',
  { index: 1, count: 2 },
  { index: 3, count: 2 },
  { gte: 1 },
  [{ name: 'minPassRate', expected: '≥ 0.5', actual: '0', passed: false }],
  [{ evaluator: 'exact', score: 1, pass: true }],
];

/** Keys an artifact has, for edits that rename one. */
const ARTIFACT_KEYS = [
  'schemaVersion',
  'interrupted',
  'verdict',
  'runs',
  'suite',
  'params',
  'testset',
  'summary',
  'plan',
  'cases',
  'shard',
  'index',
  'evaluations',
  'evaluator',
  'score',
  'pass',
  'threshold',
  'trials',
  'output',
  'error',
  'contentId',
  'comparison',
];

/** The case lines of an artifact as written: `        {…}` or `        {…},`. */
const CASE_LINE = /^ {8}\{.*\}(,?)$/;

/** One fuzzed use of an artifact: the files to write and the command line to run on them. */
export interface ArtifactFuzzCase {
  project: FuzzProject;
  argv: string[];
  /** Which base was edited into `mut.json`. */
  edited: keyof ArtifactBases;
}

/** The `n`th case of the sequence seeded with `seed`. */
export function fuzzArtifactCase(seed: number, n: number, bases: ArtifactBases): ArtifactFuzzCase {
  const next = random(seed * 7_000_003 + n);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const edited: keyof ArtifactBases = next() < 0.7 ? 'base.json' : 's1.json';
  let text = bases[edited];
  const edits = 1 + Math.floor(next() * 3);
  for (let i = 0; i < edits; i++) text = editArtifact(text, next, pick);
  const project: FuzzProject = { ...ARTIFACT_PROJECT, ...bases, 'mut.json': text };
  return { project, argv: pick(edited === 'base.json' ? WHOLE_COMMANDS : SHARD_COMMANDS), edited };
}

/** What reads an edited whole-run artifact (`mut.json`), beside the intact ones. */
const WHOLE_COMMANDS: string[][] = [
  ['show', 'mut.json'],
  ['show', 'mut.json', '--failed', '--full'],
  ['show', 'mut.json', '--json'],
  ['show', 'mut.json', '--case', 'b', '--grid', 'style=warm', '--errored', '--flaky'],
  ['compare', 'base.json', 'mut.json'],
  ['compare', 'mut.json', 'base.json', '--format', 'md'],
  ['compare', 'base.json', 'mut.json', '--format', 'json'],
  ['report', 'mut.json', '-o', 'r.html'],
  ['report', 'mut.json', '--junit', 'j.xml'],
  ['report', 'base.json', '--baseline', 'mut.json', '-o', 'r.html'],
  ['run', 'evals.yaml', '--baseline', 'mut.json', '-o', 'out.json'],
  ['run', 'evals.yaml', '--resume', 'mut.json', '-o', 'out.json'],
  ['merge', 'mut.json', 's2.json', '-o', 'merged.json'],
  ['override', 'mut.json', '--case', 'b94e79e3', '--evaluator', 'exact', '--score', '0.5'],
];

/** What reads an edited shard artifact (`mut.json` in place of shard 1). */
const SHARD_COMMANDS: string[][] = [
  ['merge', 'mut.json', 's2.json', '-o', 'merged.json'],
  ['merge', 's2.json', 'mut.json', '-o', 'merged.json', '--junit', 'j.xml'],
  ['merge', 'mut.json', '--allow-partial', '-o', 'merged.json'],
  ['merge', 'mut.json', 's2.json', '--baseline', 'base.json', '-o', 'merged.json'],
  ['show', 'mut.json', '--failed'],
  ['compare', 'base.json', 'mut.json'],
];

function editArtifact(
  text: string,
  next: () => number,
  pick: <T>(items: readonly T[]) => T,
): string {
  const lines = text.split('\n');
  const caseLines = lines.flatMap((line, i) => (CASE_LINE.test(line) ? [i] : []));
  switch (Math.floor(next() * 8)) {
    case 0: // any text edit: a character dropped, a token inserted, a line repeated, …
      return mutate(text, next, pick);
    case 1: // the file cut short, as by a full disk or a killed writer
      return text.slice(0, Math.floor(next() * text.length));
    case 2: // a value of the frame replaced, the line's comma kept
      return replaceFrameValue(lines, next, pick);
    case 3: // a value inside one case line replaced, removed or renamed
      if (caseLines.length === 0) return mutate(text, next, pick);
      lines[pick(caseLines)] = editCaseLine(lines[pick(caseLines)] ?? '', next, pick);
      return lines.join('\n');
    case 4: // a case line dropped, repeated or moved (to another run's place)
      return moveCaseLine(lines, caseLines, next);
    case 5: // an interrupted run: `interrupted: true` and a case missing
      return moveCaseLine(
        text.replace('"interrupted": false', '"interrupted": true').split('\n'),
        caseLines,
        () => 0,
      );
    case 6: {
      // The same data written on one line (another tool's layout), one value edited.
      const data = parsed(text);
      return data === undefined
        ? mutate(text, next, pick)
        : JSON.stringify(editJson(data.value, next, pick));
    }
    default: // a newer or older schema
      return text.replace('"schemaVersion": 1', `"schemaVersion": ${pick([0, 2, '"1"', 1.5])}`);
  }
}

function replaceFrameValue(
  lines: string[],
  next: () => number,
  pick: <T>(items: readonly T[]) => T,
): string {
  const frame = lines.flatMap((line, i) => (/^\s*"[^"]+": [^[{]/.test(line) ? [i] : []));
  if (frame.length === 0) return lines.join('\n');
  const i = pick(frame);
  const line = lines[i] ?? '';
  const colon = line.indexOf('": ') + 3;
  const comma = line.endsWith(',') ? ',' : '';
  lines[i] =
    `${line.slice(0, colon)}${JSON.stringify(pick([...VALUES, ...ARTIFACT_VALUES]))}${comma}`;
  return lines.join('\n');
}

function editCaseLine(
  line: string,
  next: () => number,
  pick: <T>(items: readonly T[]) => T,
): string {
  const comma = CASE_LINE.exec(line)?.[1] ?? '';
  const data = parsed(line.slice(8, line.length - comma.length));
  if (data === undefined) return mutate(line, next, pick);
  return `        ${JSON.stringify(editJson(data.value, next, pick))}${comma}`;
}

/** `text` parsed, or undefined when an earlier edit left it no longer JSON. */
function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function moveCaseLine(lines: string[], caseLines: number[], next: () => number): string {
  if (caseLines.length === 0) return lines.join('\n');
  const from = caseLines[Math.floor(next() * caseLines.length)]!;
  const line = lines[from] ?? '';
  const bare = line.endsWith(',') ? line.slice(0, -1) : line;
  const how = Math.floor(next() * 3);
  if (how === 0) {
    // Dropped: the line before it loses its comma when it was the last.
    lines.splice(from, 1);
    if (!line.endsWith(',') && CASE_LINE.test(lines[from - 1] ?? ''))
      lines[from - 1] = (lines[from - 1] ?? '').replace(/,$/, '');
    return lines.join('\n');
  }
  // Repeated in place, or put before another case line (of this run or of another).
  const to = how === 1 ? from : caseLines[Math.floor(next() * caseLines.length)]!;
  lines.splice(to, 0, `${bare},`);
  return lines.join('\n');
}

/** `value` with one node replaced, removed, repeated or renamed. */
function editJson(
  value: unknown,
  next: () => number,
  pick: <T>(items: readonly T[]) => T,
): unknown {
  const places: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        places.push({ parent: node, key: i });
        walk(child);
      });
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        places.push({ parent: node as Record<string, unknown>, key });
        walk(child);
      }
    }
  };
  walk(value);
  if (places.length === 0) return pick(ARTIFACT_VALUES);
  const { parent, key } = pick(places);
  const how = Math.floor(next() * 4);
  if (Array.isArray(parent) && typeof key === 'number') {
    if (how === 0) parent.splice(key, 1);
    else if (how === 1) parent.splice(key, 0, structuredClone(parent[key]));
    else parent[key] = pick([...VALUES, ...ARTIFACT_VALUES]);
    return value;
  }
  const object = parent as Record<string, unknown>;
  if (how === 0) delete object[key];
  else if (how === 1) {
    object[pick([...ARTIFACT_KEYS, ...KEYS])] = object[key];
    delete object[key];
  } else object[key] = pick([...VALUES, ...ARTIFACT_VALUES]);
  return value;
}
