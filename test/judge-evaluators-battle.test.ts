/**
 * The battle judge built-ins (manual-battle, automatic-battle) against a fake OpenAI-compatible
 * server: both orders asked, the outcome of the two verdicts, and the baseline files.
 */
import assert from 'node:assert/strict';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  baselineCaseKey,
  parseBaselineFile,
  serializeBaselineFile,
  type BaselineFile,
} from '../src/evaluators/judges/battle-baselines.ts';
import { battleOutcome } from '../src/evaluators/judges/battle.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import type { BuiltinFiles } from '../src/evaluators/types.ts';
import type { RecordedRequest } from './helpers/openai-server.ts';
import {
  create,
  evaluate,
  evaluationError,
  judgeContext,
  section,
  sent,
  verdict,
} from './helpers/judge-evaluators.ts';
import { server, tempDirs, useJudgeServer } from './helpers/judge-server.ts';

useJudgeServer();

/** A consistent battle judge: prefers the response `rank` rates higher, whatever the order. */
function battleJudge(rank: (text: string) => number) {
  return (request: RecordedRequest) => {
    const prompt = sent(request).prompt;
    const a = rank(section(prompt, 'response_a') ?? '');
    const b = rank(section(prompt, 'response_b') ?? '');
    return verdict(a > b ? 'A' : b > a ? 'B' : 'tie');
  };
}

/** Prefers texts containing `word`. */
const prefers = (word: string) => battleJudge((text) => (text.includes(word) ? 1 : 0));

/** Rates "better" texts above plain ones and plain ones above "worse" ones. */
const ranked = battleJudge((text) =>
  text.includes('better') ? 2 : text.includes('worse') ? 0 : 1,
);

/** A judge that gives the same answer whatever the order (so the orders disagree, or tie). */
const fixedJudge = (choice: string) => () => verdict(choice);

describe('manual-battle', () => {
  const options = {
    baseline: '{{case.baseline_output}}',
    question: '{{case.question}}',
    criteria: 'Shorter is better.',
  };
  const testCase = { question: 'Say hi', baseline_output: 'old answer' };

  it('judges both orders, concurrently, in two requests', async () => {
    server.setDefault({ delayMs: 40 });
    server.setResponder(prefers('new'));
    const evaluation = await evaluate(create('manual-battle', options), testCase, 'new answer');
    assert.equal(server.requests.length, 2);
    assert.equal(server.maxInFlight, 2, 'the two orders are asked at once');
    const orders = server.requests.map((r) => {
      const prompt = sent(r).prompt;
      assert.equal(section(prompt, 'request'), 'Say hi');
      assert.equal(section(prompt, 'criteria'), 'Shorter is better.');
      return [section(prompt, 'response_a'), section(prompt, 'response_b')];
    });
    assert.deepEqual(
      orders.sort(),
      [
        ['new answer', 'old answer'],
        ['old answer', 'new answer'],
      ].sort(),
    );
    assert.equal(evaluation.score, 1);
    assert.equal(evaluation.metadata?.outcome, 'win');
    assert.deepEqual(evaluation.metadata?.verdicts, [
      { order: ['output', 'baseline'], choice: 'A', outcome: 'win', reason: 'picked A' },
      { order: ['baseline', 'output'], choice: 'B', outcome: 'win', reason: 'picked B' },
    ]);
    assert.equal(evaluation.usage?.calls, 2);
    assert.equal(evaluation.usage?.promptTokens, 84);
  });

  it('scores an agreed loss 0, a flipped verdict 0.5 and two ties 0.5', async () => {
    const evaluator = create('manual-battle', options);
    assert.deepEqual(evaluator.threshold, { gte: 0.5 });

    server.setResponder(prefers('old'));
    const loss = await evaluate(evaluator, testCase, 'new answer');
    assert.equal(loss.score, 0);
    assert.equal(loss.metadata?.outcome, 'loss');

    server.setResponder(fixedJudge('A'));
    const flipped = await evaluate(evaluator, testCase, 'new answer');
    assert.equal(flipped.score, 0.5);
    assert.equal(flipped.metadata?.outcome, 'tie');
    const outcomes = (flipped.metadata?.verdicts as { outcome: string }[]).map((v) => v.outcome);
    assert.deepEqual(outcomes, ['win', 'loss']);

    server.setResponder(fixedJudge('tie'));
    const tie = await evaluate(evaluator, testCase, 'new answer');
    assert.equal(tie.score, 0.5);
  });

  it('uses the default criteria and a JSON baseline when none are given as text', async () => {
    server.setResponder(fixedJudge('tie'));
    await evaluate(
      create('manual-battle', { baseline: '{{case.previous}}' }),
      { previous: { a: 1 } },
      'x',
    );
    const prompt = sent(server.requests[0]).prompt;
    assert.match(section(prompt, 'criteria') ?? '', /more correctly/);
    assert.equal(section(prompt, 'request'), undefined);
    assert.ok([section(prompt, 'response_a'), section(prompt, 'response_b')].includes('{"a":1}'));
  });

  it('fails the evaluation when either order fails, counting both calls', async () => {
    server.setResponder((request) =>
      section(sent(request).prompt, 'response_a') === 'new answer' ? verdict('A') : verdict('C'),
    );
    const error = await evaluationError(
      evaluate(create('manual-battle', options), testCase, 'new answer'),
    );
    assert.match(error.message, /"C"/);
    assert.equal(error.usage?.calls, 2);
  });

  it('combines verdicts: only an agreement wins or loses', () => {
    assert.deepEqual(battleOutcome('win', 'win'), { outcome: 'win', score: 1 });
    assert.deepEqual(battleOutcome('loss', 'loss'), { outcome: 'loss', score: 0 });
    assert.deepEqual(battleOutcome('win', 'tie'), { outcome: 'tie', score: 0.5 });
    assert.deepEqual(battleOutcome('loss', 'win'), { outcome: 'tie', score: 0.5 });
    assert.deepEqual(battleOutcome('tie', 'tie'), { outcome: 'tie', score: 0.5 });
  });
});

describe('automatic-battle', () => {
  interface Run {
    files: BuiltinFiles;
    flush(): Promise<void>;
    registered(): number;
  }

  async function configDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'evalgate-battle-'));
    tempDirs.push(dir);
    return dir;
  }

  /** A run's file settings; `flush` runs what the evaluators registered, as the pipeline does. */
  function run(dir: string, updateBaselines = false): Run {
    const flushes: (() => Promise<unknown>)[] = [];
    return {
      files: { configDir: dir, suiteId: 'qa', updateBaselines, onRunEnd: (f) => flushes.push(f) },
      async flush() {
        for (const flush of flushes) await flush();
      },
      registered: () => flushes.length,
    };
  }

  const fileOf = (dir: string) => join(dir, 'battles', 'qa', 'battle.json');
  const readFileJson = async (dir: string) =>
    JSON.parse(await readFile(fileOf(dir), 'utf8')) as BaselineFile;
  const options = { question: '{{case.q}}' };
  const cases = [{ q: 'one' }, { q: 'two' }, { q: 'three' }];

  /** Records `outputs` (one per case) as the baselines of a fresh config folder. */
  async function recorded(outputs: string[]): Promise<string> {
    const dir = await configDir();
    const first = run(dir);
    const evaluator = create('automatic-battle', options, { id: 'battle', files: first.files });
    for (const [i, output] of outputs.entries()) await evaluate(evaluator, cases[i] ?? {}, output);
    await first.flush();
    return dir;
  }

  it('records every output on the first run and writes the file after the run', async () => {
    const dir = await configDir();
    const first = run(dir);
    const evaluator = create('automatic-battle', options, { id: 'battle', files: first.files });
    assert.deepEqual(evaluator.threshold, { gte: 0.5 });
    const a = await evaluate(evaluator, { q: 'one' }, 'answer one');
    // A second trial of the same case: the first value recorded stays.
    await evaluate(evaluator, { q: 'one' }, 'second trial of one');
    const b = await evaluate(evaluator, { q: 'two' }, { structured: ['answer', 2] }, { temp: 1 });
    // A recorded case gets no evaluation (a tie would pass on a run that compared nothing).
    assert.equal(a, undefined);
    assert.equal(b, undefined);
    assert.equal(server.requests.length, 0, 'recording needs no judge');
    await assert.rejects(
      stat(fileOf(dir)),
      { code: 'ENOENT' },
      'nothing is written before the end',
    );

    await first.flush();
    const text = await readFile(fileOf(dir), 'utf8');
    const file = JSON.parse(text) as BaselineFile;
    assert.equal(file.version, 1);
    assert.equal(file.suite, 'qa');
    assert.equal(file.evaluator, 'battle');
    assert.deepEqual(file.baselines[baselineCaseKey({ q: 'one' }, {})]?.output, 'answer one');
    assert.deepEqual(file.baselines[baselineCaseKey({ q: 'two' }, { temp: 1 })]?.output, {
      structured: ['answer', 2],
    });
    for (const entry of Object.values(file.baselines)) {
      assert.ok(!Number.isNaN(Date.parse(entry.recordedAt)));
    }
    assert.equal(
      text,
      serializeBaselineFile(file),
      'written pretty, keys sorted, newline at the end',
    );
    assert.match(text, /^\{\n {2}"baselines": \{\n/);
    assert.deepEqual(
      await readdir(join(dir, 'battles', 'qa')),
      ['battle.json'],
      'no temp file left',
    );
    assert.ok(text.endsWith('}\n'));
  });

  it('keys a case by its data and its grid point', () => {
    assert.equal(
      baselineCaseKey({ a: 1, b: 2 }, { t: 1 }),
      baselineCaseKey({ b: 2, a: 1 }, { t: 1 }),
    );
    assert.notEqual(baselineCaseKey({ a: 1 }, { t: 1 }), baselineCaseKey({ a: 1 }, { t: 2 }));
    assert.notEqual(baselineCaseKey({ a: 1 }, {}), baselineCaseKey({ a: 2 }, {}));
  });

  it('never writes an existing file without --update-baselines, and battles the recorded answers', async () => {
    const dir = await recorded(['old one', 'old two']);
    const old = new Date('2020-01-01T00:00:00Z');
    await utimes(fileOf(dir), old, old);
    const before = await readFile(fileOf(dir), 'utf8');

    const second = run(dir);
    const evaluator = create('automatic-battle', options, { id: 'battle', files: second.files });
    server.setResponder(ranked);
    const win = await evaluate(evaluator, { q: 'one' }, 'better one');
    const loss = await evaluate(evaluator, { q: 'two' }, 'worse two');
    assert.equal(win.score, 1);
    assert.equal(loss.score, 0);
    assert.equal(loss.metadata?.baselineReplaced, undefined);
    assert.equal(server.requests.length, 4);
    const baselines = server.requests.map((r) => {
      const prompt = sent(r).prompt;
      return [section(prompt, 'response_a'), section(prompt, 'response_b')].find((t) =>
        t?.startsWith('old'),
      );
    });
    assert.deepEqual(baselines.sort(), ['old one', 'old one', 'old two', 'old two']);

    const missing = await evaluationError(evaluate(evaluator, { q: 'three' }, 'new three'));
    assert.match(missing.message, /evals run --update-baselines/);
    assert.match(missing.message, /battles\/qa\/battle\.json/);

    assert.equal(second.registered(), 0, 'a plain run registers no write at all');
    await second.flush();
    assert.equal(await readFile(fileOf(dir), 'utf8'), before);
    assert.equal((await stat(fileOf(dir))).mtimeMs, old.getTime());
  });

  it('with --update-baselines replaces the baselines that lost, keeps the rest and records missing ones', async () => {
    const dir = await recorded(['old one', 'old two']);
    const keys = cases.map((c) => baselineCaseKey(c, {}));
    const before = await readFileJson(dir);

    const update = run(dir, true);
    const evaluator = create('automatic-battle', options, { id: 'battle', files: update.files });
    server.setResponder(ranked);
    const win = await evaluate(evaluator, { q: 'one' }, 'better one');
    const loss = await evaluate(evaluator, { q: 'two' }, 'worse two');
    const fresh = await evaluate(evaluator, { q: 'three' }, 'new three');
    assert.equal(win.score, 1);
    assert.equal(win.metadata?.baselineReplaced, true);
    assert.equal(loss.score, 0);
    assert.equal(loss.metadata?.baselineReplaced, undefined);
    assert.equal(fresh, undefined, 'recorded, not judged');

    assert.deepEqual(await readFileJson(dir), before, 'unchanged until the run ends');
    await update.flush();
    const after = await readFileJson(dir);
    assert.equal(after.baselines[keys[0] ?? '']?.output, 'better one');
    assert.equal(after.baselines[keys[1] ?? '']?.output, 'old two');
    assert.deepEqual(after.baselines[keys[1] ?? ''], before.baselines[keys[1] ?? '']);
    assert.equal(after.baselines[keys[2] ?? '']?.output, 'new three');
  });

  it('reads a file named by `file`, relative to the config folder', async () => {
    const dir = await configDir();
    const first = run(dir);
    const evaluator = create(
      'automatic-battle',
      { file: 'golden/b.json' },
      { id: 'battle', files: first.files },
    );
    await evaluate(evaluator, { q: 'one' }, 'x');
    await first.flush();
    const file = parseBaselineFile(await readFile(join(dir, 'golden', 'b.json'), 'utf8'), {
      suite: 'qa',
      evaluator: 'battle',
    });
    assert.ok(file.ok);
    await assert.rejects(stat(fileOf(dir)), { code: 'ENOENT' });
  });

  it('refuses to load without a model, without file settings, or with a bad file', async () => {
    const dir = await configDir();
    assert.throws(
      () =>
        create(
          'automatic-battle',
          {},
          { judge: judgeContext({ model: undefined }), files: run(dir).files },
        ),
      /needs a model: set defaults\.judge\.model/,
    );
    assert.throws(
      () => create('automatic-battle', {}, { judge: null, files: run(dir).files }),
      /judge client/,
    );
    assert.throws(() => create('automatic-battle', {}), /file settings/);

    await mkdir(join(dir, 'battles', 'qa'), { recursive: true });
    await writeFile(fileOf(dir), '{ "version": 1, "suite": ');
    assert.throws(
      () => create('automatic-battle', {}, { id: 'battle', files: run(dir).files }),
      /battles\/qa\/battle\.json is not valid JSON/,
    );
    await writeFile(
      fileOf(dir),
      JSON.stringify({ version: 1, suite: 'other', evaluator: 'battle', baselines: {} }),
    );
    assert.throws(
      () => create('automatic-battle', {}, { id: 'battle', files: run(dir).files }),
      /battles\/qa\/battle\.json holds the baselines of suite "other"/,
    );
    await writeFile(
      fileOf(dir),
      JSON.stringify({ version: 2, suite: 'qa', evaluator: 'battle', baselines: {} }),
    );
    assert.throws(
      () => create('automatic-battle', {}, { id: 'battle', files: run(dir).files }),
      /format version 2/,
    );
    await writeFile(
      fileOf(dir),
      JSON.stringify({
        version: 1,
        suite: 'qa',
        evaluator: 'battle',
        baselines: { k: { output: 1 } },
      }),
    );
    assert.throws(
      () => create('automatic-battle', {}, { id: 'battle', files: run(dir).files }),
      /baseline "k" is not an object with "output" and "recordedAt"/,
    );
  });

  it('refuses a baselines file that is a device or a FIFO, which would never end or never open', async () => {
    const dir = await configDir();
    await mkdir(join(dir, 'battles', 'qa'), { recursive: true });
    // /dev/null stands for them all: the same check refuses a FIFO before it would block.
    await symlink('/dev/null', fileOf(dir));
    assert.throws(
      () => create('automatic-battle', {}, { id: 'battle', files: run(dir).files }),
      /cannot read the baselines file battles\/qa\/battle\.json: it is a character device, not a regular file/,
    );
  });

  it('refuses a templated file option at validation', () => {
    const problems = builtinEvaluators['automatic-battle'].validate?.({
      file: 'battles/{{params.x}}.json',
    });
    assert.equal(problems?.[0]?.path, 'file');
  });
});
