// The test runner's reporter for `npm test`: Node's spec reporter at a terminal, and under CI
// (CI=true, or output that is not a terminal) a compact one: a dot per passing test, every
// failure in full, and the same closing summary lines as spec (`ℹ tests N`, `ℹ pass N`, …), so
// a log of 2,000 tests stays a few screens long. Either way a run in which no test ran fails.
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { spec } from 'node:test/reporters';

const compact = process.env.CI === 'true' || !process.stdout.isTTY;

let ran = 0;

/**
 * A test that ran: not a suite, not skipped or todo, and not the wrapper the runner makes of
 * each test file (named by its path).
 */
function isTest(data) {
  return data.details?.type !== 'suite' && !data.skip && !data.todo && !isFileWrapper(data);
}

/**
 * The entry the runner makes for a test file as a whole (when the file has no test, or does not
 * load): named by the file's path, absolute on Node 20, relative to the working folder on 24.
 */
function isFileWrapper(data) {
  return typeof data.file === 'string' && resolve(data.name) === data.file;
}

/** The events, counting the tests that ran. */
async function* counted(source) {
  for await (const event of source) {
    const { type, data } = event;
    if ((type === 'test:pass' || type === 'test:fail') && isTest(data)) ran += 1;
    yield event;
  }
}

/** After the summary: a run that ran no test (a wrong glob, every test filtered out) fails. */
function* noTestCheck() {
  if (ran > 0) return;
  process.exitCode = 1;
  yield 'no test ran: a test run that executes nothing is a failure\n';
}

export default async function* reporter(source) {
  if (!compact) {
    yield* Readable.from(counted(source)).compose(new spec());
    yield* noTestCheck();
    return;
  }
  source = counted(source);
  let dots = 0;
  const failures = [];
  const summary = [];
  /**
   * Each test file's time, to name the slowest before the summary: where a run's time goes. The
   * file's own entry where the runner reports one, else the sum of its top-level tests and suites
   * (which a file runs one after another).
   */
  const fileTimes = new Map();
  const timeFile = (data) => {
    const ms = data.details?.duration_ms;
    if (data.nesting !== 0 || typeof data.file !== 'string' || typeof ms !== 'number') return;
    const times = fileTimes.get(data.file) ?? { own: undefined, sum: 0 };
    if (isFileWrapper(data)) times.own = ms;
    else times.sum += ms;
    fileTimes.set(data.file, times);
  };
  const endLine = () => {
    const text = dots > 0 ? '\n' : '';
    dots = 0;
    return text;
  };
  for await (const event of source) {
    switch (event.type) {
      case 'test:pass':
        timeFile(event.data);
        // Suites, skipped tests and file wrappers pass as tests do; show only the tests.
        if (!isTest(event.data)) break;
        dots += 1;
        yield dots % 100 === 0 ? '.\n' : '.';
        break;
      case 'test:fail': {
        timeFile(event.data);
        // A failing file wrapper is shown: it is how a file that cannot load fails.
        if (event.data.details?.type === 'suite') break;
        const { name, file, line, details } = event.data;
        const error = details?.error;
        const cause = error?.cause ?? error;
        const message =
          cause instanceof Error ? (cause.stack ?? cause.message) : String(cause ?? error);
        failures.push(`✖ ${name} (${file ?? '?'}:${line ?? '?'})\n${indent(message)}`);
        dots += 1;
        yield dots % 100 === 0 ? 'x\n' : 'x';
        break;
      }
      case 'test:stderr':
      case 'test:stdout':
        // What tests print goes to the log only when one fails, through its error.
        break;
      case 'test:diagnostic':
        // The run's closing counts, printed last as spec prints them.
        if (event.data.nesting === 0) summary.push(`ℹ ${event.data.message}\n`);
        break;
      default:
        break;
    }
  }
  yield endLine();
  if (failures.length > 0) yield `\nfailing tests:\n\n${failures.join('\n\n')}\n\n`;
  if (fileTimes.size > 1) yield slowest(fileTimes);
  yield summary.join('');
  yield* noTestCheck();
}

/** The slowest test files, slowest first, for the log. */
function slowest(fileTimes) {
  const cwd = `${process.cwd()}/`;
  const lines = [...fileTimes]
    .map(([file, { own, sum }]) => [file, own ?? sum])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file.replace(cwd, '')}`);
  return `\nslowest test files (of ${fileTimes.size}):\n${lines.join('\n')}\n\n`;
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
