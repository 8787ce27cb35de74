// The floor for the runner-overhead scenario: a hand-written loop doing the same work as the
// benchmarked suite (read the CSV, call the function, three checks, write the results as JSON)
// with none of the runner's machinery.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

const [csvPath, outPath] = process.argv.slice(2);
const rows = parse(readFileSync(csvPath), { columns: true });
const fn = ({ testCase }) => `answer: ${testCase.expected}`;
const results = [];
for (const row of rows) {
  const output = fn({ testCase: row });
  const exact = output === `answer: ${row.expected}` ? 1 : 0;
  const contains = output.includes(row.expected) ? 1 : 0;
  const regex = /^answer: /.test(output) ? 1 : 0;
  results.push({ data: row, output, scores: [exact, contains, regex] });
}
writeFileSync(outPath, JSON.stringify(results, null, 2));
