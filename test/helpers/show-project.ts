/**
 * A scratch project for `evals show`, the terminal summary and the HTML report: a function over
 * a grid of two points whose cases fail in each way a user meets (a wrong answer, an answer
 * too long, a forbidden phrase, a long error whose cause is at its end), with long dedup ids
 * that share a prefix and rows without one.
 */
import { scratch, writeFiles } from './cli.ts';

/** The cause at the end of the long error, which no cut may lose. */
export const ERROR_CAUSE = '401: Incorrect API key provided';
/** Long dedup ids that differ only near their end. */
export const LONG_IDS = [
  'customer-support-refund-policy-question-0001',
  'customer-support-refund-policy-question-0002',
];

/** The project's folder; its evals.yaml runs suite `support` over `model: [small, large]`. */
export function showProject(): string {
  const dir = scratch();
  const rows = [
    'question,expected,__dedup_id__',
    `What is the refund window?,30 days,${LONG_IDS[0]}`,
    `Can I get a refund after 40 days?,No,${LONG_IDS[1]}`,
    'Say sorry,Hello,',
    'Write an essay,short,',
    'Call the judge,ok,judge-call',
    'Call the judge again,ok,judge-call-2',
  ];
  const app = `
export function answer({ testCase, params }) {
  const q = testCase.question;
  if (q.startsWith('Call the judge')) {
    throw new Error('judge call failed: POST http://127.0.0.1:9/v1/chat/completions?' + 'x'.repeat(150) + ' ${ERROR_CAUSE}');
  }
  if (q === 'Write an essay') return 'word '.repeat(560).trim();
  if (q === 'Say sorry') return 'Sorry, I cannot help <script>window.__pwned = 1</script> :shipit: @octocat';
  if (/^(Can I|What is)/.test(q) && params.model === 'small') return 'Yes';
  return testCase.expected;
}
`;
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: support',
      '    testset: { path: rows.csv }',
      '    function: ./app.mjs#answer',
      '    grid: { model: [small, large] }',
      '    evaluators:',
      '      - id: exact',
      '        use: is-equals',
      "        with: { expected: '{{case.expected}}' }",
      '      - id: short',
      '        use: length',
      '        with: { max: 200 }',
      '      - id: polite',
      '        use: regex',
      '        with: { pattern: Sorry, match: none }',
      '',
    ].join('\n'),
    'rows.csv': `${rows.join('\n')}\n`,
    'app.mjs': app,
  });
  return dir;
}
