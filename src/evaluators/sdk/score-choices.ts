import { describeValue } from '../../shared/errors.ts';

/**
 * What is wrong with a `BaseLLMJudge`'s `scoreChoices`, each problem naming the entry by the
 * class's own member (`scoreChoices[1].value`), never the `llm-judge` option it becomes: the
 * user wrote the list, not `choices`. A repeated name is named as one: turned into options it
 * would silently collapse into a single choice.
 */
export function scoreChoicesProblems(scoreChoices: unknown): string[] {
  if (!Array.isArray(scoreChoices)) {
    return [
      `scoreChoices must be an array of { name, value } choices, found ${describeValue(scoreChoices)}`,
    ];
  }
  const problems: string[] = [];
  if (scoreChoices.length < 2) {
    problems.push(
      `scoreChoices needs at least 2 choices, found ${scoreChoices.length}: a judge with one answer decides nothing`,
    );
  }
  const firstIndex = new Map<string, number>();
  scoreChoices.forEach((choice: unknown, index) => {
    const at = `scoreChoices[${index}]`;
    if (typeof choice !== 'object' || choice === null || Array.isArray(choice)) {
      problems.push(`${at} must be an object { name, value }, found ${describeValue(choice)}`);
      return;
    }
    const { name, value } = choice as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push(`${at}.name must be a non-empty string, found ${describeValue(name)}`);
    } else {
      const first = firstIndex.get(name);
      if (first === undefined) firstIndex.set(name, index);
      else {
        problems.push(
          `${at}.name ${JSON.stringify(name)} is a duplicate of scoreChoices[${first}].name: each choice needs a name of its own`,
        );
      }
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      const of = typeof name === 'string' ? ` (the score of ${JSON.stringify(name)})` : '';
      problems.push(`${at}.value${of} must be a number in [0, 1], found ${describeValue(value)}`);
    }
  });
  return problems;
}
