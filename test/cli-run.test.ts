/**
 * `evals run` end to end, in a child process: the quickstart and its filters, failing cases,
 * stored outputs, pass modules and gates, concurrency limits, modules in a CommonJS-scope
 * package, the tsx compile cache, and interruption.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { renderJUnit } from '../src/report/junit.ts';
import { repoRoot, runCli, scratch, writeFiles } from './helpers/cli.ts';
import { readArtifact } from './helpers/read-artifact.ts';

describe('evals run: the quickstart', () => {
  it('runs offline, prints a summary, writes a schema-valid artifact and exits 0', async () => {
    const dir = scratch();
    const r = await runCli(
      ['run', join(repoRoot, 'examples/quickstart/evals.yaml'), '-o', 'r.json'],
      {
        cwd: dir,
      },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const artifact = readArtifact(join(dir, 'r.json'));
    assert.equal(artifact.verdict, 'pass');
    assert.equal(artifact.interrupted, false);
    // 2 models × 2 styles, in grid order (last key fastest)
    assert.deepEqual(
      artifact.runs.map((run) => run.params),
      [
        { model: 'small', style: 'terse' },
        { model: 'small', style: 'chatty' },
        { model: 'large', style: 'terse' },
        { model: 'large', style: 'chatty' },
      ],
    );
    for (const run of artifact.runs) assert.equal(run.summary.cases, 10);
    const small = artifact.runs[0];
    const australia = small?.cases.find(
      (c) => (c.data as { country: string }).country === 'Australia',
    );
    assert.equal(australia?.passed, false, 'the small model misses Canberra');
    assert.deepEqual(australia?.source, { file: 'testsets/capitals.csv', line: 5 });
    assert.equal(australia?.id, 'au', 'the dedup id is the identity');
    assert.match(r.stdout, /capitals/);
    assert.match(r.stdout, /exact/);
    assert.match(r.stdout, /concise/);
    assert.match(r.stderr, /done 40\/40|40\/40/);
  });

  it('filters with --suite, --grid and --tag, and writes JUnit', async () => {
    const dir = scratch();
    const config = join(repoRoot, 'examples/quickstart/evals.yaml');
    const r = await runCli(
      [
        'run',
        config,
        '-o',
        'r.json',
        '--suite',
        'capitals',
        '--grid',
        'model=large',
        '--tag',
        'smoke',
        '--junit',
        'junit.xml',
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const artifact = readArtifact(join(dir, 'r.json'));
    assert.deepEqual(
      artifact.runs.map((run) => [run.params.model, run.summary.cases]),
      [
        ['large', 2],
        ['large', 2],
      ],
    );
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assert.equal(junit.match(/<testsuite /g)?.length, 2, 'one <testsuite> per suite × grid point');
    // Cases are not kept in memory for JUnit: the report is read back from the case spool, and
    // is exactly what the artifact renders to.
    assert.equal(junit, renderJUnit(artifact));
  });

  it('rejects a --grid value that matches no grid point, with exit 2', async () => {
    const r = await runCli(
      ['run', join(repoRoot, 'examples/quickstart/evals.yaml'), '--grid', 'model=huge'],
      { cwd: scratch() },
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no grid point matches --grid model=huge/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });
});

describe('evals run: failing cases are results, not crashes', () => {
  it('marks a throwing row errored with its message, scores the rest and exits 1', async () => {
    const dir = scratch('throws');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    const artifact = readArtifact(join(dir, 'out.json'));
    const cases = artifact.runs[0]?.cases ?? [];
    assert.equal(cases.length, 4);
    const boom = cases.find((c) => (c.data as { word: string }).word === 'boom');
    assert.equal(boom?.error, 'the model refused this row');
    assert.equal(boom?.passed, false);
    assert.deepEqual(boom?.source, { file: 'rows.jsonl', line: 2 });
    const others = cases.filter((c) => c !== boom);
    assert.ok(others.every((c) => c.passed && c.evaluations[0]?.score === 1));
    assert.equal(artifact.runs[0]?.summary.errored, 1);
    assert.equal(artifact.verdict, 'fail');
  });
});

describe('evals run: stored outputs, pass modules and gates', () => {
  it('scores the output column when a suite has no function, and errors rows without one', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: stored
    testset: { path: outputs.csv }
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "{{case.expected}}" } }
`,
      'outputs.csv': 'expected,output\nParis,Paris\nRome,Milan\n',
      'no-output.csv': 'expected\nParis\n',
    });
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    const cases = readArtifact(join(dir, 'out.json')).runs[0]?.cases ?? [];
    assert.deepEqual(
      cases.map((c) => [c.output, c.passed]),
      [
        ['Paris', true],
        ['Milan', false],
      ],
    );
    writeFiles(dir, {
      'evals.yaml': readFileSync(join(dir, 'evals.yaml'), 'utf8').replace(
        'outputs.csv',
        'no-output.csv',
      ),
    });
    const missing = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(missing.code, 1);
    assert.match(
      readArtifact(join(dir, 'out.json')).runs[0]?.cases[0]?.error ?? '',
      /no function: and this row has no "output" field/,
    );
  });

  it('applies a pass-condition module and an evaluator mean gate', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': `version: 1
suites:
  - id: graded
    testset:
      cases:
        - { text: "short" }
        - { text: "a much longer answer" }
    function: ./fn.ts#echo
    pass: ./pass.ts#lenient
    evaluators:
      - { id: brief, use: length, with: { max: 10 } }
      - { id: similar, use: levenshtein, with: { expected: "short" } }
    gate:
      evaluators: { similar: { mean: { gte: 0.9 } } }
`,
      'fn.ts':
        'export const echo = ({ testCase }: { testCase: { text: string } }) => testCase.text;\n',
      // Passes every case whose output is under 30 characters, whatever the evaluators say.
      'pass.ts':
        'export function lenient({ output }: { output: string }): boolean {\n  return output.length < 30;\n}\n',
    });
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    const run = readArtifact(join(dir, 'out.json')).runs[0];
    assert.deepEqual(
      run?.cases.map((c) => c.passed),
      [true, true],
      'the pass module overrides the failing length check',
    );
    const gate = run?.gate.conditions.find((c) => c.name === 'evaluators.similar.mean');
    assert.equal(gate?.passed, false, 'the mean similarity is far below 0.9');
    assert.equal(run?.verdict, 'fail');
    assert.match(r.stdout, /evaluators\.similar\.mean/);
  });
});

describe('evals run: concurrency limits hold exactly', () => {
  it('peaks at the suite concurrency (5) and the evaluator concurrency (2)', async () => {
    const dir = scratch('concurrency');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const cases = readArtifact(join(dir, 'out.json')).runs[0]?.cases ?? [];
    const fnPeak = Math.max(...cases.map((c) => (c.output as { fnPeak: number }).fnPeak));
    const evPeak = Math.max(...cases.map((c) => Number(c.evaluations[0]?.metadata?.evPeak)));
    assert.equal(fnPeak, 5);
    assert.equal(evPeak, 2);
  });

  it('--concurrency caps the whole process', async () => {
    const dir = scratch('concurrency');
    const r = await runCli(['run', '-o', 'out.json', '--concurrency', '3'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const cases = readArtifact(join(dir, 'out.json')).runs[0]?.cases ?? [];
    assert.equal(Math.max(...cases.map((c) => (c.output as { fnPeak: number }).fnPeak)), 3);
  });
});

describe('evals run: modules in a CommonJS-scope package', () => {
  it('loads a .ts function importing a sibling by its .js specifier', async () => {
    const dir = scratch('cjs-scope');
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const artifact = readArtifact(join(dir, 'out.json'));
    assert.deepEqual(
      artifact.runs[0]?.cases.map((c) => c.output),
      ['5', '6'],
    );
    assert.deepEqual(artifact.runs[0]?.cases[1]?.source, { file: 'evals.yaml', line: 7 });
  });
});

describe('evals run: tsx compile cache', () => {
  /** Every file under `dir` (recursively), sorted. */
  function filesUnder(dir: string): string[] {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  }

  it("a second run of the same TypeScript reuses the first run's compiled modules", async () => {
    // tsx caches compiled modules in <tmpdir>/tsx-<uid>, keyed on each module's URL (our loader
    // namespace included): a second run that compiles anew adds entries there.
    const dir = scratch('cjs-scope');
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const env = { TMPDIR: tmp, TMP: tmp, TEMP: tmp };
    const first = await runCli(['run', '-o', 'out.json'], { cwd: dir, env });
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const cached = filesUnder(tmp);
    assert.ok(cached.length >= 2, `tsx cached the compiled .ts files: ${cached.join(', ')}`);
    const second = await runCli(['run', '-o', 'out.json'], { cwd: dir, env });
    assert.equal(second.code, 0, second.stderr + second.stdout);
    assert.deepEqual(filesUnder(tmp), cached);
  });
});

describe('evals run: interruption', () => {
  it('on SIGINT writes the partial artifact with interrupted: true and exits 130', async () => {
    const dir = scratch('slow');
    const r = await runCli(['run', '-o', 'out.json'], {
      cwd: dir,
      onSpawn: (child) => {
        // Interrupt once the run is under way (the fixture writes `started` on its first case);
        // polling is bounded, and the run lasts ~10 s, so the signal always lands mid-run.
        let polls = 0;
        const poll = setInterval(() => {
          polls += 1;
          if (existsSync(join(dir, 'started')) || polls > 400) {
            clearInterval(poll);
            // Let a few 100 ms cases finish first, so the artifact holds some but not all.
            setTimeout(() => child.kill('SIGINT'), 600);
          }
        }, 25);
      },
    });
    assert.equal(r.code, 130, r.stderr);
    const artifact = readArtifact(join(dir, 'out.json'));
    assert.equal(artifact.interrupted, true);
    assert.equal(artifact.verdict, 'fail');
    const done = artifact.runs[0]?.cases.length ?? 0;
    assert.ok(done > 0 && done < 200, `some but not all cases finished (${done})`);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });
});
