/**
 * Arguments of the Autoblocks SDK's `runTestSuite` that evalgate does not take, each with what to
 * write instead, for the message of a suite ported with one (check-arguments.ts). Without it the
 * nearest argument's name would be offered, which for these is one of another meaning.
 */

/**
 * Arguments of earlier Autoblocks SDK releases that evalgate does not take, with what to write
 * instead: the nearest name would point a suite ported from them at a setting of another meaning
 * (`maxEvaluatorConcurrency` is not `maxTestCaseConcurrency`).
 */
const FORMER_SDK_ARGUMENTS: Readonly<Record<string, string>> = {
  maxEvaluatorConcurrency:
    "an argument of earlier Autoblocks SDKs that evalgate does not have: cap an evaluator's calls in flight with maxConcurrency on the evaluator (class field), which the suite's cases share",
};

/**
 * Arguments of the Autoblocks SDK's `runTestSuite` that serve its server or that evalgate does
 * not do, with what to write instead: taken and ignored, a port would lose what it asked for
 * without a word (`retryCount` would not retry).
 */
const SDK_ONLY_ARGUMENTS: Readonly<Record<string, string>> = {
  retryCount:
    'the Autoblocks SDK retries fn after a network error or an HTTP 5xx; evalgate calls fn once per case (and trial): remove it, and retry inside fn where the service it calls needs it',
  serializeDatasetItemId:
    'it links each result to an item of an Autoblocks dataset, and evalgate has no datasets on a server: remove it (a case is known by its testCaseHash; keep the item id as a field of the test case and the artifact records it with the case)',
  serializeTestCaseForHumanReview:
    "it picks the fields of Autoblocks' human review screen, which evalgate does not have: remove it (the results artifact keeps each test case and output whole; evals show displays them, and evals override records a reviewer's score)",
  serializeOutputForHumanReview:
    "it picks the fields of Autoblocks' human review screen, which evalgate does not have: remove it (the results artifact keeps each test case and output whole; evals show displays them, and evals override records a reviewer's score)",
  humanReviewJob:
    "it creates a review job on Autoblocks' server, which evalgate never calls: remove it (review the results artifact with evals show, and record corrections with evals override)",
};

/** What to write instead of `name`, an argument of the SDK's that evalgate does not take. */
export function sdkArgumentHint(name: string): string | undefined {
  for (const table of [FORMER_SDK_ARGUMENTS, SDK_ONLY_ARGUMENTS]) {
    if (Object.hasOwn(table, name)) return table[name];
  }
  return undefined;
}
