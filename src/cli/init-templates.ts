/**
 * The starter projects of `evals init --template NAME`: each a config, a testset and what
 * produces the outputs. `function` and `command` run offline as written; `http` runs against
 * the small server it includes; `model` needs an OpenAI-compatible endpoint (Ollama by default).
 */

const QUESTIONS_CSV = `__dedup_id__,question,keywords
refund-window,How long do I have to ask for a refund?,"[""30 days""]"
reset-password,How do I reset my password?,"[""Settings"",""reset link""]"
cancel-plan,Can I cancel my plan at any time?,"[""cancel"",""any time""]"
`;

/** The offline starters' agent: canned answers to the three questions (JavaScript). */
const ANSWERS_JS = `// Canned answers keep the example offline; replace this lookup with your agent.
/** @type {[keyword: string, answer: string][]} */
const ANSWERS = [
  ['refund', 'You can ask for a refund within 30 days of purchase.'],
  ['password', 'Open Settings, choose Security and we will email you a reset link.'],
  ['cancel', 'Yes, you can cancel your plan at any time from the billing page.'],
];
/** @param {string} question */
const answer = (question) => {
  const found = ANSWERS.find(([keyword]) => question.toLowerCase().includes(keyword));
  return found ? found[1] : 'Sorry, I do not know.';
};`;

/** The evaluators and gate every no-code starter checks its answers with (YAML). */
const STARTER_EVALUATORS = `    evaluators:
      - id: mentions-keywords
        use: has-all-substrings
        with:
          substrings: "{{case.keywords}}"
          ignoreCase: true
      - id: no-apology
        use: contains
        with: { values: [Sorry], ignoreCase: true }
        not: true
    gate:
      minPassRate: 0.9
`;

/**
 * The evals.yaml of a starter with no code: one suite over the questions, `target` (YAML lines
 * from `type:` on, indented under `target:`, after a line break) and the shared evaluators.
 */
function noCodeConfig(parts: { timeout: string; grid?: string; target: string }): string {
  return `# yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
version: 1
defaults:
  concurrency: 4
  timeout: ${parts.timeout}
suites:
  - id: support-answers
    testset:
      path: testsets/questions.csv${parts.grid ?? ''}
    target:${parts.target.trimEnd()}
${STARTER_EVALUATORS}`;
}

/**
 * `function` (the default): a CSV testset, a TypeScript function under test, a custom evaluator
 * and a small grid. It runs offline; swap `answer` for a real model call. `ts` is the extension
 * of its TypeScript files.
 */
function functionFiles(ts: '.ts' | '.mts'): Record<string, string> {
  return {
    'evals.yaml': `# yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
version: 1
defaults:
  concurrency: 8
  timeout: 30s
suites:
  - id: support-answers
    testset:
      path: testsets/questions.csv
    function: ./app/answer${ts}#answer
    grid:
      tone: [plain, friendly]
    evaluators:
      - id: mentions-keywords
        use: has-all-substrings
        with:
          substrings: "{{case.keywords}}"
          ignoreCase: true
      - id: short-enough
        use: length
        with: { max: 40, unit: words }
      - id: polite
        use: ./evaluators/polite${ts}#polite
        threshold: { gte: 0.5 }
    gate:
      minPassRate: 0.9
`,
    'testsets/questions.csv': QUESTIONS_CSV,
    [`app/answer${ts}`]: `import type { FnArgs } from 'evalgate';

interface Question {
  question: string;
  keywords: string[];
}

// The grid point of evals.yaml's \`grid:\`, one run per tone.
type Params = { tone: 'plain' | 'friendly' };

// Canned answers keep the example offline; replace this lookup with your model call.
const ANSWERS: [keyword: string, answer: string][] = [
  ['refund', 'You can ask for a refund within 30 days of purchase.'],
  ['password', 'Open Settings, choose Security and we will email you a reset link.'],
  ['cancel', 'Yes, you can cancel your plan at any time from the billing page.'],
];

/** The function under test: one question in, one answer out. */
export async function answer({
  testCase,
  params,
  signal,
}: FnArgs<Question, Params>): Promise<string> {
  signal.throwIfAborted();
  const question = testCase.question.toLowerCase();
  const found = ANSWERS.find(([keyword]) => question.includes(keyword));
  const text = found ? found[1] : 'Sorry, I do not know.';
  return params.tone === 'friendly' ? \`Happy to help! \${text}\` : text;
}
`,
    [`evaluators/polite${ts}`]: `import type { EvaluatorFn } from 'evalgate';

/** A custom evaluator: a plain function returning a score in [0, 1]. */
export const polite: EvaluatorFn<Record<string, unknown>, string> = ({ output }) => {
  const rude = /\\b(obviously|just read|stupid)\\b/i.test(output);
  return { score: rude ? 0 : 1, metadata: rude ? { reason: 'dismissive wording' } : {} };
};
`,
  };
}

/** `command`: a Node script as the agent, the case on its stdin as JSON. Runs offline. */
const COMMAND_FILES: Record<string, string> = {
  'evals.yaml': noCodeConfig({
    timeout: '30s',
    target: `
      type: command
      # An argument list, no shell: each {{...}} is exactly one argument.
      run: [node, agent.mjs, "{{case.question}}"]
`,
  }),
  'testsets/questions.csv': QUESTIONS_CSV,
  'agent.mjs': `// The agent under test. evalgate runs it once per case: the question is its first
// argument, and the whole case arrives on stdin as JSON ({"case": {...}, "params": {...}}).
// Whatever it prints to stdout is the output; a non-zero exit is a case error.
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
${ANSWERS_JS}
process.stdout.write(answer(input.case.question) + '\\n');
`,
};

/** `http`: a POST per case to an endpoint; a tiny server is included to try it offline. */
const HTTP_FILES: Record<string, string> = {
  'evals.yaml': noCodeConfig({
    timeout: '30s',
    target: `
      type: http
      # Point API_URL at your staging API; the default is server.mjs, next to this file.
      url: \${API_URL:-http://127.0.0.1:8787/answer}
      method: POST
      headers:
        Authorization: "Bearer \${API_TOKEN:-local}"
      body: { question: "{{case.question}}" }
      output: answer
`,
  }),
  'testsets/questions.csv': QUESTIONS_CSV,
  'server.mjs': `// A stand-in for your API: POST /answer with {"question": "..."} answers {"answer": "..."}.
// Start it with \`node server.mjs\`, then run the evals in another terminal.
import { createServer } from 'node:http';

${ANSWERS_JS}
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/answer') {
      res.writeHead(404).end('POST /answer');
      return;
    }
    const { question } = JSON.parse(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ answer: answer(String(question)) }));
  });
});
const port = Number(process.env['PORT'] ?? 8787);
server.listen(port, '127.0.0.1', () => {
  // PORT=0 picks a free port: print the one it got.
  const address = server.address();
  const at = address !== null && typeof address === 'object' ? address.port : port;
  console.log(\`listening on http://127.0.0.1:\${at}/answer\`);
});
`,
};

/** `model`: a chat model per case, a grid over two prompt files. Ollama by default. */
const MODEL_FILES: Record<string, string> = {
  'evals.yaml': noCodeConfig({
    timeout: '60s',
    grid: `
    # Every prompt is one run: the grid is the prompt (× model) matrix.
    grid:
      prompt: [prompts/concise.md, prompts/friendly.md]`,
    target: `
      type: model
      # Ollama's OpenAI-compatible endpoint; set OPENAI_BASE_URL, OPENAI_API_KEY and MODEL
      # for OpenAI, Azure, vLLM or LiteLLM instead.
      baseUrl: \${OPENAI_BASE_URL:-http://localhost:11434/v1}
      apiKey: \${OPENAI_API_KEY:-ollama}
      model: \${MODEL:-llama3.1}
      messages:
        - { role: system, content: { file: "{{params.prompt}}" } }
        - { role: user, content: "{{case.question}}" }
`,
  }),
  'testsets/questions.csv': QUESTIONS_CSV,
  'prompts/concise.md': `You are the support assistant of an online shop. Answer in one sentence.
`,
  'prompts/friendly.md': `You are the friendly support assistant of an online shop. Answer warmly, in at most
three sentences, and mention the exact steps or time limits that apply.
`,
};

export type StarterName = 'function' | 'command' | 'http' | 'model';

/** A starter: its files, and what to do before `evals run` (shown after writing them). */
export interface Starter {
  files: Record<string, string>;
  /**
   * The files for a CommonJS package (no `"type": "module"`), when they differ: TypeScript as
   * `.mts`, ES modules there whatever the package says, so `export` type-checks under
   * `verbatimModuleSyntax` too (in a CommonJS package a `.ts` file is CommonJS).
   */
  commonJsFiles?: Record<string, string>;
  /** The commands, run in the project's folder (`evals init` says to `cd` there first). */
  next: string[];
}

/** Every starter. */
export const STARTERS: Record<StarterName, Starter> = {
  function: { files: functionFiles('.ts'), commonJsFiles: functionFiles('.mts'), next: [] },
  command: { files: COMMAND_FILES, next: [] },
  http: { files: HTTP_FILES, next: ['node server.mjs &   # or set API_URL to your API'] },
  model: {
    files: MODEL_FILES,
    next: ['ollama pull llama3.1   # or set OPENAI_BASE_URL, OPENAI_API_KEY and MODEL'],
  },
};
