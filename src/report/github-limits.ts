/**
 * GitHub's size limits on what the Action posts, as GitHub documents them, and the budgets the
 * reports are held to under them. The one place these numbers live: the markdown report, the
 * annotations and the Action read them from here.
 *
 * - docs.github.com/rest/checks/runs: `output.summary` and `output.text` at most 65,535
 *   characters; an annotation's `title` at most 255 characters, its `message` and `raw_details`
 *   at most 64 KB.
 * - docs.github.com/rest/issues/comments: a comment body at most 65,536 characters (GitHub's 422
 *   says "Body is too long (maximum is 65536 characters)").
 * - docs.github.com/actions (job summaries): at most 1 MiB per step.
 * - docs.github.com/actions (workflow commands): at most 10 error annotations shown per step.
 */

/** A pull request comment's body: 65,536 characters. */
export const PR_COMMENT_MAX_CHARS = 65_536;

/** A check run's `output.summary` (and `output.text`): 65,535 characters. */
export const CHECK_RUN_SUMMARY_MAX_CHARS = 65_535;

/** A step's job summary: 1 MiB of UTF-8. */
export const JOB_SUMMARY_MAX_BYTES = 1024 * 1024;

/** A check-run annotation's `title`: 255 characters. */
export const ANNOTATION_TITLE_MAX_CHARS = 255;

/** A check-run annotation's `message`, and its `raw_details`: 64 KB each. */
export const ANNOTATION_TEXT_MAX_BYTES = 64 * 1024;

/** Error annotations GitHub shows per step from workflow commands (`::error file=…::`). */
export const MAX_WORKFLOW_COMMAND_ANNOTATIONS = 10;

/**
 * What the Action renders each markdown document to, in UTF-8 bytes. A character is at least one
 * byte, so a comment or check-run summary within this many bytes is within GitHub's character
 * limit whatever it holds; GitHub counts the check-run summary in bytes too. The job summary
 * keeps a KiB in hand.
 */
export const REPORT_MAX_BYTES = {
  comment: PR_COMMENT_MAX_CHARS,
  checkRunSummary: CHECK_RUN_SUMMARY_MAX_CHARS,
  jobSummary: JOB_SUMMARY_MAX_BYTES - 1024,
} as const;

/**
 * What an annotation's `message` and `raw_details` are cut to, in UTF-8 bytes: under
 * `ANNOTATION_TEXT_MAX_BYTES`, with room for the JSON escapes the request body adds.
 */
export const ANNOTATION_TEXT_BUDGET_BYTES = 60_000;
