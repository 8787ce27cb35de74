import { BaseTestEvaluator, type Evaluation } from 'evalgate';

interface Options {
  maxWords?: number;
}

/**
 * A custom evaluator: full marks up to `maxWords` words, then the score falls linearly to 0 at
 * twice that length. `with:` in evals.yaml reaches the constructor.
 */
export class Concise extends BaseTestEvaluator<Record<string, unknown>, { text: string }> {
  id = 'concise';
  private readonly maxWords: number;

  constructor(options: Options = {}) {
    super();
    this.maxWords = options.maxWords ?? 12;
  }

  evaluateTestCase({ output }: { output: { text: string } }): Evaluation {
    const words = output.text.split(/\s+/).filter(Boolean).length;
    const over = Math.max(0, words - this.maxWords);
    const score = Math.max(0, 1 - over / this.maxWords);
    return { score, metadata: { words, maxWords: this.maxWords } };
  }
}
