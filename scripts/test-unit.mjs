// `npm run test:unit`: every test file under Node's runner (through tsx), with the project's
// reporter. Test files run as many at a time as the machine has cores, at least two: most of a
// file's time is spent waiting on the processes, servers and browser it starts, so on a 2-core
// machine two at a time take about three quarters of the time one at a time does (Node's own
// default is one fewer than the cores: one at a time there). Arguments go to the runner; test
// files named among them replace the whole list (`npm run test:unit -- test/x.test.ts`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const args = process.argv.slice(2);
const named = args.filter((arg) => arg.endsWith('.ts'));
const files =
  named.length > 0
    ? []
    : readdirSync('test')
        .filter((name) => name.endsWith('.test.ts'))
        .sort()
        .map((name) => `test/${name}`);
const concurrency = Math.max(2, availableParallelism());
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=./scripts/test-reporter.mjs',
    ...args,
    ...files,
  ],
  { stdio: 'inherit' },
);
if (result.error) throw result.error;
process.exitCode = result.status ?? 1;
