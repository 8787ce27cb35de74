/**
 * The projects of test/verdict-equivalence-wide.test.ts. Each starts from a project of
 * test/helpers/equivalence-projects.ts (suites, evaluators, gates, trials, grids, tags) and
 * widens it by a seeded PRNG (`EQ_SEED` explores others): each suite's rows as JSONL, a CSV file
 * or inline `cases:` (narrowed at times by the testset's `tags:` instead of `--tag`); its output
 * from the deterministic function, an `http` target (the loopback server of the test file) or a
 * `command` target (a POSIX `sh` script given the case as arguments, as a list or a shell line,
 * or a node script reading it from stdin); a module evaluator (a function, a class or an object)
 * in some projects; CLI overrides of the head (`--suite`, `--trials`, `--concurrency`, `--grid`);
 * and a baseline made with other trials, other grid points or other suites than the head. Some
 * suites ask a `model` target, some are scored by an `llm-judge` (test/helpers/equivalence-wide-model.ts).
 */
import { random } from '../../scripts/fuzz-inputs.ts';
import { generate, type Spec } from './equivalence-projects.ts';
import {
  evaluatorModule,
  judgeEvaluator,
  modelFails,
  modelTarget,
  type ModelOdds,
  type Shape,
} from './equivalence-wide-model.ts';

const SEED = Number(process.env.EQ_SEED) || 20261127;

type Source = 'jsonl' | 'csv' | 'inline';
type Kind = 'function' | 'http' | 'sh' | 'node' | 'model';

interface Row {
  id: string;
  expected: string;
  n: number;
  __tags__?: string[];
}

/** How often the http and command targets fail and answer wrong, by row, grid point and version. */
export interface Odds {
  errors: number;
  wrong: number;
  wrongV1: number;
}

export interface WideSpec extends Spec {
  /** CLI overrides every way of running the head takes (`--suite`, `--trials`, `--concurrency`, `--grid`). */
  overrides: string[];
  /** The baseline run's arguments besides `run`, the tag filter and `-o`. */
  baseArgs: string[];
  /** Resume with the command the interrupted run printed, not `--resume FILE` alone. */
  printedResume: boolean;
  odds: Odds;
  /** The baseline runs the head's suites and grid points (else it may share no run with it). */
  compared: boolean;
  /** The odds of the model target and the judge (test/helpers/equivalence-wide-model.ts). */
  models: ModelOdds | undefined;
  /** Every `run` of every way says `--no-cache` (else the project's own `.evalgate/cache`). */
  noCache: boolean;
}

const offset = (mode: string | undefined): number => (mode === 'a' ? 11 : mode === 'b' ? 29 : 0);

/** Whether the targets fail on row `n` at grid `mode` (what answer.sh and answer.mjs compute). */
function fails(odds: Odds, n: number, mode: string | undefined, v1: boolean): boolean {
  return (n * 7 + offset(mode) + (v1 ? 53 : 0)) % 100 < odds.errors;
}

/** The answer of the http target (the test's server), to query `q`; `undefined` for a case it fails. */
export function answer(odds: Odds, q: Record<string, string>, v1: boolean): string | undefined {
  const n = Number(q.n);
  const mode = q.mode || undefined;
  if (fails(odds, n, mode, v1)) return undefined;
  const wrong =
    (n * 13 + offset(mode) * 3 + (v1 ? 37 : 0)) % 100 < (v1 ? odds.wrongV1 : odds.wrong);
  return (wrong ? q.expected!.slice(1) + 'Q' : q.expected!) + (q.pad ?? '');
}

const answerSh = (
  o: Odds,
) => `# EXPECTED N PAD MODE: the answer, wrong or failing (exit 3) for some rows
off=0; case "$4" in a) off=11 ;; b) off=29 ;; esac
v=0; [ -e v1 ] && v=1
if [ $(( ($2 * 7 + off + v * 53) % 100 )) -lt ${o.errors} ]; then echo "no answer for n=$2" >&2; exit 3; fi
limit=${o.wrong}; [ $v = 1 ] && limit=${o.wrongV1}
out=$1
if [ $(( ($2 * 13 + off * 3 + v * 37) % 100 )) -lt $limit ]; then out="\${1#?}Q"; fi
printf '%s%s\\n' "$out" "$3"
`;

const answerNode = (o: Odds) => `import { existsSync, readFileSync } from 'node:fs';
const { case: row, params } = JSON.parse(readFileSync(0, 'utf8'));
const v = existsSync('v1') ? 1 : 0;
const n = Number(row.n);
if ((n * 7 + v * 53) % 100 < ${o.errors}) {
  process.stderr.write('no answer for n=' + n + '\\n');
  process.exit(3);
}
const wrong = (n * 13 + v * 37) % 100 < (v ? ${o.wrongV1} : ${o.wrong});
process.stdout.write((wrong ? row.expected.slice(1) + 'Q' : row.expected) + (params.pad ?? '') + '\\n');
`;

function csv(rows: readonly Row[], tagged: boolean): string {
  const cells = (row: Row) => [row.id, row.expected, row.n, ...(tagged ? row.__tags__! : [])];
  return [
    `id,expected,n${tagged ? ',__tags__' : ''}`,
    ...rows.map((row) => cells(row).join(',')),
    '',
  ].join('\n');
}

/** The YAML lines (at the suite's keys' indent) of a suite's target. */
function target(
  kind: Kind,
  grid: ReadonlyMap<string, string[]>,
  index: number,
  alt: boolean,
): string[] {
  const pad = grid.has('pad') ? '{{ params.pad }}' : '';
  const mode = grid.has('mode') ? '{{ params.mode }}' : '';
  const url = `http://127.0.0.1:__PORT__/answer/p${index}`;
  if (kind === 'http' && alt) {
    const query = `id={{ case.id }}&expected={{ case.expected }}&n={{ case.n }}&pad=${pad}&mode=${mode}`;
    return ['target:', '  type: http', `  url: "${url}?${query}"`, '  maxRetries: 0'];
  }
  if (kind === 'http') {
    const body = `{ id: "{{ case.id }}", expected: "{{ case.expected }}", n: "{{ case.n }}", pad: "${pad}", mode: "${mode}" }`;
    return [
      'target:',
      '  type: http',
      `  url: "${url}"`,
      `  body: ${body}`,
      '  output: answer',
      '  maxRetries: 0',
    ];
  }
  if (kind === 'node') return ['target:', '  type: command', '  run: [node, answer.mjs]'];
  const args = ['{{ case.expected }}', '{{ case.n }}', pad, mode];
  // As a shell line, each template reaches the script through a quoted environment variable.
  if (alt)
    return [
      'target:',
      '  type: command',
      '  shell: true',
      `  run: 'sh answer.sh ${args.map((a) => a || '""').join(' ')}'`,
    ];
  return [
    'target:',
    '  type: command',
    `  run: [sh, answer.sh, ${args.map((a) => `"${a}"`).join(', ')}]`,
  ];
}

/** A suite of the narrow project, as its YAML lines, rows and grid. */
interface Suite {
  lines: string[];
  rows: Row[];
  grid: Map<string, string[]>;
  kind: Kind;
}

export function generateWide(index: number): WideSpec {
  // Other projects than the narrow test's, which counts its indices from 0.
  const spec = generate(1000 + index);
  // The salt 5 makes the default 12 projects hold every variation below but a CLI `--tag` (which
  // the narrow test runs in many): checked by reading their descriptions, not by the test.
  const r = random((SEED ^ 5) + index * 104729);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const odds: Odds = { errors: int(0, 12), wrong: int(10, 60), wrongV1: int(0, 20) };
  // Model targets and the judge draw from their own PRNG, leaving the draws above as they were.
  const m = random((SEED ^ 7) + index * 7919);
  const models = { errors: Math.floor(m() * 15), wrong: 10 + Math.floor(m() * 50) };
  const judged = m() < 0.4;
  const files = { ...spec.files };
  // A grid value a shell would read as more than a word, for the printed `--grid` of a resumption.
  const odd = JSON.stringify(pick(['-z', '-z', 'a b', "it's", '$HOME', '*', '"q"']));
  const yamlText = files['evals.yaml']!.replaceAll('"-z"', odd);
  const [top, ...blocks] = yamlText.split(/\n(?= {2}- id: s\d\n)/);
  const tagged = files['rows-0.jsonl']!.includes('__tags__');
  const suites: Suite[] = blocks.map((block, s) => {
    const lines = block.split('\n').filter((line) => line !== '');
    const grid = new Map<string, string[]>();
    for (const line of lines) {
      const key = /^ {6}(pad|mode): \[(.*)\]$/.exec(line);
      if (key)
        grid.set(
          key[1]!,
          key[2]!.split(', ').map((v) => (v.startsWith('"') ? (JSON.parse(v) as string) : v)),
        );
    }
    const kinds: Kind[] = [
      'function',
      'http',
      'http',
      'sh',
      'sh',
      ...(grid.size === 0 ? ['node' as const] : []),
    ];
    const picked = pick(kinds);
    const kind: Kind = m() < 0.3 ? 'model' : picked;
    const rows = files[`rows-${s}.jsonl`]!.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    // A process per call (~10 ms for sh, ~0.15 s for node here): command suites stay small,
    // ~12 calls a run, with one trial unless `--trials` says 2.
    const points = [...grid.values()].reduce((product, vs) => product * vs.length, 1);
    const cap = { node: 3, sh: Math.max(3, Math.floor(12 / points)) }[kind as string];
    return { lines, grid, kind, rows: rows.slice(0, cap ?? rows.length) };
  });
  const commands = suites.some((suite) => suite.kind === 'sh' || suite.kind === 'node');
  const drawn = commands || r() < 0.4 ? pick<Shape>(['function', 'class', 'object']) : undefined;
  const modelled = suites.some((suite) => suite.kind === 'model');
  const called = judged || modelled;
  const noCache = called && m() < 0.5;
  // Cached, a model target's later ways never reach the fake, which then cannot stop them: the
  // module evaluator does.
  const shape = drawn ?? (modelled && !noCache ? 'function' : undefined);
  // At times the testset's `tags:` filters the rows, rather than `--tag`.
  const configTags = spec.filter.length > 0 && r() < 0.4;
  const filter = configTags ? [] : spec.filter;
  const described: string[] = [];
  const yaml = [top!];
  suites.forEach((suite, s) => {
    const source = pick<Source>(['jsonl', 'csv', 'inline']);
    delete files[`rows-${s}.jsonl`];
    if (source === 'jsonl')
      files[`rows-${s}.jsonl`] = suite.rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
    if (source === 'csv') files[`rows-${s}.csv`] = csv(suite.rows, tagged);
    const alt = r() < 0.4;
    const gateRule =
      shape && r() < 0.4 ? `mod: { mean: { gte: ${int(20, 80) / 100} } }` : undefined;
    for (const line of suite.lines) {
      if (line === `    testset: { path: rows-${s}.jsonl }`) {
        const tags = configTags ? ', tags: [x]' : '';
        if (source !== 'inline') yaml.push(`    testset: { path: rows-${s}.${source}${tags} }`);
        else
          yaml.push(
            '    testset:',
            ...(configTags ? ['      tags: [x]'] : []),
            '      cases:',
            ...suite.rows.map((row) => `        - ${JSON.stringify(row)}`),
          );
      } else if (line === '    function: ./m.mjs#fn' && suite.kind !== 'function') {
        const lines =
          suite.kind === 'model'
            ? modelTarget(suite.grid, index)
            : target(suite.kind, suite.grid, index, alt);
        yaml.push(...lines.map((t) => `    ${t}`));
      } else if (
        suite.kind !== 'function' &&
        suite.kind !== 'http' &&
        line.startsWith('    trials:')
      ) {
        continue;
      } else if (suite.kind === 'node' && line.startsWith('    concurrency:')) {
        yaml.push('    concurrency: 4');
      } else if (line === '    evaluators:' && judged && !shape) {
        yaml.push(line, judgeEvaluator(index, m() < 0.5 ? '' : ', threshold: { gte: 0.5 }'));
      } else if (line === '    evaluators:' && shape) {
        const own = shape === 'object' || r() < 0.3 ? pick(['', ', threshold: { gte: 0.75 }']) : '';
        const set = own
          ? ''
          : pick(['', ', threshold: { gte: 0.5 }', ', threshold: { gte: 0.5 }, not: true']);
        files['ev.mjs'] ??= evaluatorModule(shape, int(0, 10), int(0, 40), own);
        const options = shape === 'object' ? '' : `, with: { floor: ${pick([0.25, 0.5, 1])} }`;
        const judge = judged ? [judgeEvaluator(index, '')] : [];
        yaml.push(
          line,
          ...judge,
          `      - { id: mod, use: ./ev.mjs#${shape === 'class' ? 'Near' : 'near'}${options}${set} }`,
        );
      } else if (gateRule && line.startsWith('    gate: {')) {
        yaml.push(
          line.includes('evaluators: {')
            ? line.replace('evaluators: { ', `evaluators: { ${gateRule}, `)
            : line.replace('gate: { ', `gate: { evaluators: { ${gateRule} }, `),
        );
      } else yaml.push(line);
    }
    const grid = [...suite.grid].map(([k, v]) => `${k}=${v.length}`).join(' ') || 'no grid';
    const how = {
      function: '',
      http: alt ? ' GET' : ' POST',
      sh: alt ? ' line' : ' argv',
      node: ' stdin',
      model: '',
    };
    described.push(
      `s${s}: ${suite.rows.length} ${source} rows, ${suite.kind}${how[suite.kind]}, ${grid}`,
    );
  });
  files['evals.yaml'] = yaml.join('\n') + '\n';
  if (suites.some((suite) => suite.kind === 'sh')) files['answer.sh'] = answerSh(odds);
  if (suites.some((suite) => suite.kind === 'node')) files['answer.mjs'] = answerNode(odds);
  if (shape) described.push(`module evaluator (${shape})`);
  if (judged) described.push('llm-judge');
  if (called) described.push(noCache ? '--no-cache' : 'cached');
  // At times the key is refused (401) or the model forbidden (403) for every call of the model
  // target or the judge: the calls after `stopAfterErrors` of them are not made, and which those
  // are depends on the way (`essence` keeps the cause, not whether the call was made).
  const refusal = m();
  const denied: ModelOdds['denied'] =
    refusal < 0.3
      ? {
          status: refusal < 0.15 ? 401 : 403,
          of: judged && !(modelled && m() < 0.5) ? 'judge' : 'target',
        }
      : undefined;
  if (called && denied) described.push(`the ${denied.of} answers ${denied.status}`);

  // The head's CLI overrides, and the baseline's.
  const suiteArg = suites.length === 2 && r() < 0.4 ? pick([['s0'], ['s1'], ['s0', 's1']]) : [];
  const trials = r() < 0.35 ? int(1, commands ? 2 : 3) : undefined;
  // `--grid` values every suite with the key has (one with no point left is refused, exit 2),
  // so any of them fits the baseline's suites too.
  const values = ['pad', 'mode'].flatMap((k) => {
    const lists = suites.flatMap((suite) => suite.grid.get(k) ?? []);
    const having = suites.filter((suite) => suite.grid.has(k)).length;
    return [...new Set(lists)]
      .filter((v) => lists.filter((x) => x === v).length === having)
      .map((v) => `${k}=${v}`);
  });
  const gridArg = values.length > 0 && r() < 0.4 ? [...new Set([pick(values), pick(values)])] : [];
  const args = (suite: string[], trial: number | undefined, grid: string[]) => [
    ...suite.flatMap((id) => ['--suite', id]),
    ...(trial === undefined ? [] : ['--trials', String(trial)]),
    ...grid.flatMap((g) => ['--grid', g]),
  ];
  const overrides = [
    ...args(suiteArg, trials, gridArg),
    ...(r() < 0.4 ? ['--concurrency', String(int(1, 3))] : []),
  ];
  const baseKind = spec.baseline
    ? pick([
        'same',
        'trials',
        ...(values.length > 0 ? ['grid'] : []),
        ...(suites.length === 2 ? ['suite'] : []),
      ])
    : 'none';
  const baseArgs =
    baseKind === 'trials'
      ? args(suiteArg, ((trials ?? int(1, 3)) % 3) + 1, gridArg)
      : baseKind === 'grid'
        ? args(suiteArg, trials, gridArg.length > 0 ? pick([[], [pick(values)]]) : [pick(values)])
        : baseKind === 'suite'
          ? args(suiteArg.length === 1 ? [] : [pick(['s0', 's1'])], trials, gridArg)
          : args(suiteArg, trials, gridArg);

  // The stop rows: selected, and for a command suite one its script answers at every grid point
  // (the module evaluator stops those runs, and it is not called for a case that errored); none
  // of a model suite whose target is refused.
  const selected = suites.flatMap((suite, s) => {
    if (suiteArg.length > 0 && !suiteArg.includes(`s${s}`)) return [];
    const modes = suite.grid.get('mode') ?? [undefined];
    return (
      suite.rows
        .filter((row) => spec.filter.length === 0 || row.__tags__?.includes('x'))
        .filter((row) => suite.kind !== 'sh' || modes.every((m) => !fails(odds, row.n, m, false)))
        .filter((row) => suite.kind !== 'node' || !fails(odds, row.n, undefined, false))
        .filter(
          (row) => suite.kind !== 'model' || modes.every((x) => !modelFails(models, row.n, x)),
        )
        // Refused, the target's calls stop reaching the fake, which then cannot stop the run.
        .filter(() => suite.kind !== 'model' || denied?.of !== 'target')
        .map((row) => row.id)
    );
  });
  const anyRow = suites.some(
    (suite, s) =>
      (suiteArg.length === 0 || suiteArg.includes(`s${s}`)) &&
      suite.rows.some((row) => spec.filter.length === 0 || row.__tags__?.includes('x')),
  );
  const stopAt = selected.length > 0 ? pick(selected) : undefined;
  const stopAgain = selected.length > 0 ? pick(selected) : undefined;
  const extras: Spec['extras'] = [];
  if (stopAt !== undefined && r() < 0.4) extras.push('twice');
  if (spec.baseline && r() < 0.3) extras.push('shardedBase');
  if (spec.baseline && r() < 0.4) extras.push('explicitBase');
  const printedResume = r() < 0.5;
  const head = overrides.join(' ') || 'no overrides';
  return {
    ...spec,
    index,
    files,
    filter,
    stopAt,
    stopAgain,
    extras,
    overrides,
    baseArgs,
    printedResume,
    odds,
    models: called ? { ...models, judgeErrors: Math.floor(m() * 15), denied } : undefined,
    noCache,
    // A tag that selects none of a capped suite's rows leaves no case to compare (a warning).
    compared: (baseKind === 'same' || baseKind === 'trials') && anyRow,
    description: `#${index} ${described.join('; ')}; ${configTags ? 'tags: [x]' : filter.join(' ') || 'no filter'}, ${head}, baseline ${spec.baseline ? `${baseKind}: ${baseArgs.join(' ') || 'no overrides'}` : 'none'}, stop at ${stopAt ?? 'none'}${printedResume ? ' (printed resume)' : ''}, also ${extras.join(' ') || 'nothing'}`,
  };
}
