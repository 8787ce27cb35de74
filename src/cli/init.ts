import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { usageError } from '../shared/errors.ts';
import type { CommandContext } from '../pipeline/context.ts';

/**
 * The starter project `evals init` writes: a CSV testset, a TypeScript function under test, a
 * custom evaluator and a small grid. It runs offline; swap `answer` for a real model call.
 */
const FILES: Record<string, string> = {
  'evals.yaml': `# yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
version: 1
defaults:
  concurrency: 8
  timeout: 30s
suites:
  - id: support-answers
    testset:
      path: testsets/questions.csv
    function: ./app/answer.ts#answer
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
        use: ./evaluators/polite.ts#polite
        threshold: { gte: 0.5 }
    gate:
      minPassRate: 0.9
`,
  'testsets/questions.csv': `__dedup_id__,question,keywords
refund-window,How long do I have to ask for a refund?,"[""30 days""]"
reset-password,How do I reset my password?,"[""Settings"",""reset link""]"
cancel-plan,Can I cancel my plan at any time?,"[""cancel"",""any time""]"
`,
  'app/answer.ts': `import type { FnArgs } from 'evalgate';

interface Question {
  question: string;
  keywords: string[];
}

// Canned answers keep the example offline; replace this lookup with your model call.
const ANSWERS: Record<string, string> = {
  refund: 'You can ask for a refund within 30 days of purchase.',
  password: 'Open Settings, choose Security and we will email you a reset link.',
  cancel: 'Yes, you can cancel your plan at any time from the billing page.',
};

/** The function under test: one question in, one answer out. */
export async function answer({ testCase, params, signal }: FnArgs<Question>): Promise<string> {
  signal.throwIfAborted();
  const key = Object.keys(ANSWERS).find((k) => testCase.question.toLowerCase().includes(k));
  const text = key ? ANSWERS[key] : 'Sorry, I do not know.';
  return params.tone === 'friendly' ? \`Happy to help! \${text}\` : text;
}
`,
  'evaluators/polite.ts': `import type { EvaluatorFn } from 'evalgate';

/** A custom evaluator: a plain function returning a score in [0, 1]. */
export const polite: EvaluatorFn<Record<string, unknown>, string> = ({ output }) => {
  const rude = /\\b(obviously|just read|stupid)\\b/i.test(output);
  return { score: rude ? 0 : 1, metadata: rude ? { reason: 'dismissive wording' } : {} };
};
`,
};

/** `evals init [dir]`: writes the starter project, never overwriting a file. */
export async function initCommand(
  dirArg: string | undefined,
  ctx: CommandContext,
): Promise<number> {
  const dir = resolve(ctx.cwd, dirArg ?? '.');
  const clashes = Object.keys(FILES).filter((name) => existsSync(join(dir, name)));
  if (clashes.length > 0) {
    throw usageError(
      'init.exists',
      `evals init writes into a folder without these files, but ${dir} already has: ${clashes.join(', ')}`,
    );
  }
  for (const [name, text] of Object.entries(FILES)) {
    const path = join(dir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, { flag: 'wx' });
  }
  const where = relative(ctx.cwd, dir) || '.';
  ctx.stdout.write(
    `Created ${Object.keys(FILES).length} files in ${where}:\n${Object.keys(FILES)
      .map((f) => `  ${f}\n`)
      .join(
        '',
      )}\nNext:\n  npm i -D evalgate   # if it is not installed yet\n  npx evals run ${where === '.' ? '' : `${where}/`}evals.yaml\n`,
  );
  return 0;
}
