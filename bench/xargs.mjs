// The baseline of bench scenario (f): the same `node -e` processes as the command target's, one
// per row of cases.csv, started by `xargs -P N` with no runner around them.
// Usage: node xargs.mjs CASES.csv N SCRIPT
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [file, parallel, script] = process.argv.slice(2);
const values = readFileSync(file, 'utf8')
  .split('\n')
  .slice(1)
  .filter(Boolean)
  .map((line) => line.split(',').at(-1));
const done = spawnSync('xargs', ['-P', parallel, '-n', '1', process.execPath, '-e', script], {
  input: `${values.join('\n')}\n`,
  stdio: ['pipe', 'ignore', 'inherit'],
});
process.exit(done.status ?? 1);
