/**
 * The evaluators and model calls of test/verdict-equivalence-wide.test.ts: the module evaluator;
 * and a `model` target and an `llm-judge` evaluator, both sent to the loopback fake of test/helpers/openai-server.ts, whose answers this
 * file decides from the request alone (`respond`). The prompts carry the case's fields between
 * markers, so the fake reads them back: the target's reply is the row's expected text, wrong or
 * an HTTP 400, 422 or 500 for some rows and grid points; the judge says `yes` when the output
 * starts with the expected text, `no` otherwise, and answers 400 or 422 for some outputs.
 *
 * Nothing else goes into an answer: not the baseline's `v1` file, not the trial (every trial
 * sends the same request; the trial is only part of the cache key), not the order of requests.
 * So an answer served from the cache is the answer the server would give, and every way of
 * running a project — whole, sharded, resumed — sees the same replies however its cache was
 * filled. Errors are never cached and are asked again, to the same answer. In some projects
 * the target or the judge answers every call 401 or 403 (`denied`): those count toward
 * `stopAfterErrors`, after which later calls fail at once with the same cause, and which calls
 * come later depends on the way. 500 is retried, so the target and the judge say
 * `maxRetries: 0`, to keep the test quick.
 */
import type { RecordedRequest, ScriptedAnswer } from './openai-server.ts';
import { AT, STOP } from './equivalence-projects.ts';

export type Shape = 'function' | 'class' | 'object';

/**
 * The module evaluator: stops the run at the stop row as the function does (a command target
 * cannot reach this process), scores by the output and the trial, and errors on some outputs.
 */
export function evaluatorModule(shape: Shape, errors: number, flip: number, own: string): string {
  const body = `if (testCase.id === globalThis.${AT}) globalThis.${STOP}?.();
    const text = String(output);
    if (h('x' + testCase.id + text) < ${errors}) throw new Error('cannot judge ' + text);
    let score = text.startsWith(String(testCase.expected)) ? 1 : (h('s' + text) % 7) / 7;
    if ((trial ?? 1) > 1 && h('t' + trial + testCase.id) < ${flip}) score = Math.max(0, score - floor);
    return { score${own} };`;
  const exported = {
    function: `export async function near({ testCase, output, trial }, options) {
    const floor = options.floor;
    ${body}
}`,
    class: `export class Near {
  constructor(options) { this.floor = options.floor; }
  async evaluateTestCase({ testCase, output, trial }) {
    const floor = this.floor;
    ${body}
  }
}`,
    object: `export const near = {
  evaluateTestCase({ testCase, output, trial }) {
    const floor = 0.5;
    ${body}
  },
};`,
  }[shape];
  return `function h(text) {
  let x = 2166136261;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 16777619) >>> 0;
  return x % 100;
}
${exported}
`;
}

/** How often the model target and the judge fail or answer wrong, by row and grid point. */
export interface ModelOdds {
  errors: number;
  wrong: number;
  judgeErrors: number;
  /** Every call of the model target or of the judge answered 401 (a wrong key) or 403. */
  denied?: { status: 401 | 403; of: 'target' | 'judge' } | undefined;
}

const TARGET = /^ANSWER id=(.*) expected=(.*) n=(\d+) pad=(.*) mode=(.*) END$/s;
const JUDGE = /JUDGE id=(.*) expected=(.*) output=(.*) END/s;

/** FNV-1a of `text`, modulo 100: a stable draw from the request's content. */
function h(text: string): number {
  let x = 2166136261;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 16777619) >>> 0;
  return x % 100;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of every message of a chat request, joined. */
function said(request: RecordedRequest): string {
  const body = isRecord(request.body) ? request.body : {};
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages
    .map((m) => (isRecord(m) && typeof m.content === 'string' ? m.content : ''))
    .join('\n');
}

const ERRORS = [400, 422, 500];

/**
 * The fake's answer to `request` for the project whose model is `p<index>` (registered with its
 * odds). It stops the run (an in-process Ctrl-C) at the stop row, as the function does.
 */
export function respond(
  odds: ReadonlyMap<string, ModelOdds>,
  request: RecordedRequest,
): ScriptedAnswer {
  const body = isRecord(request.body) ? request.body : {};
  const o = odds.get(String(body.model).replace(/^(m|j)-/, ''));
  const text = said(request);
  const judged = Array.isArray(body.tools) && body.tools.length > 0;
  const q = judged ? JUDGE.exec(text) : TARGET.exec(text.trim());
  if (!o || !q) return { status: 400, body: { error: { message: `not understood: ${text}` } } };
  const g = globalThis as Record<string, unknown>;
  if (q[1] === g[AT]) (g[STOP] as (() => void) | undefined)?.();
  const [, id, expected, third, pad, mode] = q as unknown as string[];
  if (o.denied !== undefined && o.denied.of === (judged ? 'judge' : 'target')) {
    const message = o.denied.status === 401 ? 'Incorrect API key provided' : 'Forbidden model';
    return { status: o.denied.status, body: { error: { message } } };
  }
  if (judged) {
    const output = third!;
    const draw = h(`j${id}${output}`);
    if (draw < o.judgeErrors) return { status: ERRORS[draw % 2] };
    return { toolArguments: { choice: output.startsWith(expected!) ? 'yes' : 'no', reason: 'r' } };
  }
  if (modelFails(o, Number(third), mode)) return { status: ERRORS[h(`c${third}`) % 3] };
  const wrong = h(`w${third}|${mode}`) < o.wrong;
  return { content: (wrong ? expected!.slice(1) + 'Q' : expected!) + pad };
}

/** Whether the model target errors on row `n` at grid `mode`. */
export function modelFails(o: Pick<ModelOdds, 'errors'>, n: number, mode = ''): boolean {
  return h(`e${n}|${mode}`) < o.errors;
}

/** The YAML lines (at the suite's keys' indent) of a `model` target for project `index`. */
export function modelTarget(grid: ReadonlyMap<string, string[]>, index: number): string[] {
  const pad = grid.has('pad') ? '{{ params.pad }}' : '';
  const mode = grid.has('mode') ? '{{ params.mode }}' : '';
  const prompt = `ANSWER id={{ case.id }} expected={{ case.expected }} n={{ case.n }} pad=${pad} mode=${mode} END`;
  return [
    'target:',
    '  type: model',
    `  model: m-p${index}`,
    '  baseUrl: __OPENAI__',
    '  apiKey: test-key',
    '  maxRetries: 0',
    `  prompt: ${JSON.stringify(prompt)}`,
  ];
}

/** The evaluator line (in `evaluators:`) of an `llm-judge` for project `index`. */
export function judgeEvaluator(index: number, threshold: string): string {
  const judge = `{ model: j-p${index}, baseUrl: __OPENAI__, apiKey: test-key, maxRetries: 0 }`;
  const prompt = 'JUDGE id={{ case.id }} expected={{ case.expected }} output={{ output }} END';
  const choices = '{ "yes": 1, "no": 0 }';
  return `      - { id: judge, use: llm-judge, judge: ${judge}, with: { prompt: ${JSON.stringify(prompt)}, choices: ${choices} }${threshold} }`;
}
