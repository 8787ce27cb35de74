// (f) Two parts of a run timed on their own, each against what it replaced, in one process:
// writing the artifact's case lines (src/report/case-json.ts against JSON.stringify) and reading
// CSV testsets, one without quotes and one with a quoted JSON cell a row (the streaming reader
// against csv-parse's streaming parser feeding the same row builder). Prints one JSON object: the best of several alternating rounds, in ms.
//
// node bench/parts.mjs <lib folder> <cases.csv> <cases with a quoted JSON cell a row.csv>
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';

const [lib, csvPath, quotedCsvPath] = process.argv.slice(2);
const { caseJson } = await import(join(lib, 'report', 'case-json.js'));
const { streamTestsetRows } = await import(join(lib, 'testsets', 'stream-read.js'));
const { CSV_OPTIONS, CsvRowBuilder } = await import(join(lib, 'testsets', 'csv.js'));

const ROUNDS = 7;
const CASES = 100_000;

/** Cases shaped as the overhead suite's: three built-in evaluators, µs-rounded durations. */
function benchCases() {
  const threshold = Object.freeze({ gte: 1 });
  const hex = (n) => n.toString(16).padStart(64, '0');
  const ms = (i) => Math.round(((i * 7919) % 9) + 1) / 1000;
  return Array.from({ length: CASES }, (_, i) => ({
    id: hex(i * 2 + 1),
    contentId: hex(i * 2 + 2),
    source: { file: 'cases.csv', line: i + 2 },
    data: { id: `q${i}`, question: `What is ${i} + 1?`, expected: String(i + 1) },
    output: `answer: ${i + 1}`,
    error: null,
    durationMs: ms(i + 1),
    passed: true,
    evaluations: [
      {
        evaluator: 'exact',
        score: 1,
        threshold,
        passed: true,
        metadata: null,
        error: null,
        durationMs: ms(i),
      },
      {
        evaluator: 'contains',
        score: 1,
        threshold,
        passed: true,
        metadata: { matched: String(i + 1) },
        error: null,
        durationMs: ms(i + 2),
      },
      {
        evaluator: 'shape',
        score: 1,
        threshold,
        passed: true,
        metadata: { match: 'answer: ', index: 0 },
        error: null,
        durationMs: ms(i + 3),
      },
    ],
  }));
}

/** Best wall time of `rounds` runs of each function, alternating them. */
async function best(fns) {
  const times = fns.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, fn] of fns.entries()) {
      const t = performance.now();
      await fn();
      times[k] = Math.min(times[k], performance.now() - t);
    }
  }
  return times;
}

const cases = benchCases();
for (const c of cases.slice(0, 1000)) {
  if (caseJson(c) !== JSON.stringify(c)) throw new Error('caseJson differs from JSON.stringify');
}
// Each line is encoded into a buffer, as the spool does: joining caseJson's pieces happens there.
const buffer = Buffer.allocUnsafe(1 << 16);
const writeAll = (write) => () => {
  for (const c of cases) buffer.write(write(c), 0);
};
const [caseJsonMs, stringifyMs] = await best([
  writeAll(caseJson),
  writeAll((c) => JSON.stringify(c)),
]);

/** The streaming reader and csv-parse's streaming parser, feeding the same row builder. */
async function timeCsvReads(csvPath) {
  let rows = 0;
  const readFast = async () => {
    rows = 0;
    const result = await streamTestsetRows(csvPath, 'csv', 'cases.csv', () => rows++);
    if (!result.ok || rows === 0) throw new Error(`${csvPath} did not read`);
  };
  const readCsvParse = async () => {
    let count = 0;
    const builder = new CsvRowBuilder('cases.csv', () => count++);
    const parser = parse({ ...CSV_OPTIONS, bom: true });
    let batch = [];
    parser.on('data', (record) => {
      batch.push(record);
      if (batch.length >= 1024) {
        builder.pushAll(batch);
        batch = [];
      }
    });
    await pipeline(createReadStream(csvPath), parser);
    builder.pushAll(batch);
    if (!builder.finish().ok || count !== rows) throw new Error('csv-parse read other rows');
  };
  await readFast(); // the row count to check the other reader against
  const [fastMs, csvParseMs] = await best([readFast, readCsvParse]);
  return { rows, fastMs, csvParseMs };
}
const plain = await timeCsvReads(csvPath);
const quoted = await timeCsvReads(quotedCsvPath);

console.log(
  JSON.stringify({
    cases: CASES,
    caseJsonMs,
    stringifyMs,
    rows: plain.rows,
    fastMs: plain.fastMs,
    csvParseMs: plain.csvParseMs,
    quotedRows: quoted.rows,
    quotedFastMs: quoted.fastMs,
    quotedCsvParseMs: quoted.csvParseMs,
  }),
);
