/**
 * What the model-based RAG metrics ask of a chat model, each in one forced tool call: one 1/0
 * verdict per numbered item (a retrieved passage, a sentence of the reference or the response:
 * `llm-context-precision`, `llm-context-recall`, `factual-correctness`, `noise-sensitivity`),
 * or named lists of strings (the entities of `context-entities-recall`).
 *
 * One call for all items rather than one per item: the plan's "model calls at most" stays
 * fixed per case, and the cache keys one prompt. The answer must give exactly one verdict per
 * item, in order, or every list asked for; anything else is an evaluation error that keeps the
 * answer as `raw`.
 */
import type { MetadataCut } from '../metadata.ts';
import { JudgeCalls, type ChatJudge } from './calls.ts';

/** One item's verdict: `verdict` 1 (yes) or 0 (no), with the judge's reason. */
export interface ItemVerdict {
  verdict: 0 | 1;
  reason: string;
}

/** How the verdicts are asked for: the prompts and what one item's verdict means. */
export interface VerdictQuestion {
  system: string;
  prompt: string;
  /** The tool's name, e.g. `record_usefulness`. */
  tool: string;
  /** What the array holds, e.g. "One verdict per passage, in passage order." */
  itemsDescription: string;
  /** What 1 means, e.g. "1 if the passage was useful to arrive at the reference, else 0." */
  verdictDescription: string;
  /** How many items there are: the answer must hold exactly this many verdicts. */
  count: number;
}

/** The verdicts, or the first way in which the arguments break the requested shape. */
export function readVerdicts(args: Record<string, unknown>, count: number): ItemVerdict[] | string {
  const { verdicts } = args;
  if (!Array.isArray(verdicts)) return '"verdicts" is not an array';
  if (verdicts.length !== count) {
    return `${verdicts.length} verdicts for ${count} ${count === 1 ? 'item' : 'items'}`;
  }
  const read: ItemVerdict[] = [];
  for (const [index, item] of verdicts.entries()) {
    if (typeof item !== 'object' || item === null) return `verdicts[${index}] is not an object`;
    const { verdict, reason } = item as Record<string, unknown>;
    if (verdict !== 0 && verdict !== 1) {
      return `verdicts[${index}].verdict is ${JSON.stringify(verdict) ?? 'missing'}, not 1 or 0`;
    }
    read.push({ verdict, reason: typeof reason === 'string' ? reason : '' });
  }
  return read;
}

/**
 * Asks for one verdict per item and returns them with the calls' usage. Throws an
 * `EvaluationError` (metadata `raw`: the answer) when the call fails or the answer does not fit.
 */
export async function askVerdicts(
  judge: ChatJudge,
  signal: AbortSignal | undefined,
  question: VerdictQuestion,
  cut: MetadataCut,
): Promise<{ verdicts: ItemVerdict[]; calls: JudgeCalls }> {
  const calls = new JudgeCalls(judge, signal, cut);
  return { verdicts: await askVerdictsWith(calls, judge.model, question), calls };
}

/**
 * `askVerdicts` as one of several calls of an evaluation: `calls` adds up their usage, so an
 * error in a later call still reports what the earlier ones used.
 */
export async function askVerdictsWith(
  calls: JudgeCalls,
  model: string,
  question: VerdictQuestion,
): Promise<ItemVerdict[]> {
  const verdicts = await calls.askRead(
    model,
    {
      system: question.system,
      prompt: question.prompt,
      tool: question.tool,
      description: 'Record one verdict per numbered item, in order, each with its reason first.',
      parameters: {
        type: 'object',
        properties: {
          verdicts: {
            type: 'array',
            description: question.itemsDescription,
            items: {
              type: 'object',
              properties: {
                reason: { type: 'string', description: 'Why, in one sentence.' },
                verdict: {
                  type: 'integer',
                  enum: [1, 0],
                  description: question.verdictDescription,
                },
              },
              required: ['reason', 'verdict'],
              additionalProperties: false,
            },
          },
        },
        required: ['verdicts'],
        additionalProperties: false,
      },
    },
    (args) => readVerdicts(args, question.count),
  );
  return verdicts;
}

/** How named lists of strings are asked for (the entities of a text, …). */
export interface ListQuestion {
  system: string;
  prompt: string;
  /** The tool's name, e.g. `record_entities`. */
  tool: string;
  /** Each list's argument name and what it holds; the answer must give every one. */
  lists: Readonly<Record<string, string>>;
}

/** The lists, trimmed and without blanks, or the first way in which the arguments break the shape. */
export function readLists(
  args: Record<string, unknown>,
  names: readonly string[],
): Record<string, string[]> | string {
  const read: Record<string, string[]> = {};
  for (const name of names) {
    const list = args[name];
    if (!Array.isArray(list)) return `"${name}" is not an array`;
    const index = list.findIndex((item) => typeof item !== 'string');
    if (index >= 0) return `${name}[${index}] is not a string`;
    read[name] = (list as string[]).map((item) => item.trim()).filter((item) => item !== '');
  }
  return read;
}

/**
 * Asks for the lists of `question` and returns them by name. Throws an `EvaluationError`
 * (metadata `raw`: the answer) when the call fails or the answer does not fit.
 */
export async function askLists(
  calls: JudgeCalls,
  model: string,
  question: ListQuestion,
): Promise<Record<string, string[]>> {
  const names = Object.keys(question.lists);
  const lists = await calls.askRead(
    model,
    {
      system: question.system,
      prompt: question.prompt,
      tool: question.tool,
      description: 'Record every list asked for; an empty list when there is nothing to list.',
      parameters: {
        type: 'object',
        properties: Object.fromEntries(
          names.map((name) => [
            name,
            { type: 'array', description: question.lists[name], items: { type: 'string' } },
          ]),
        ),
        required: names,
        additionalProperties: false,
      },
    },
    (args) => readLists(args, names),
  );
  return lists;
}

/** Numbered items for a prompt, fenced by `tag` so their text reads as data. */
export function numbered(tag: string, items: readonly string[]): string {
  return items
    .map((text, index) => {
      const defused = text.split(`</${tag}`).join(`<\\/${tag}`);
      return `<${tag} ${index + 1}>\n${defused}\n</${tag} ${index + 1}>`;
    })
    .join('\n');
}

/**
 * The prompt of a verdict per retrieved passage against the reference answer (with the question
 * when there is one): the passages in retrieval order, as `llm-context-precision` and
 * `noise-sensitivity` ask about them.
 */
export function passagesAgainstReference(
  question: string | undefined,
  reference: string,
  contexts: readonly string[],
): string {
  return [
    ...(question !== undefined ? [`Question:\n<question>\n${question}\n</question>`, ''] : []),
    `Reference answer:\n<reference>\n${reference}\n</reference>`,
    '',
    `Retrieved passages, in retrieval order:\n${numbered('passage', contexts)}`,
  ].join('\n');
}
