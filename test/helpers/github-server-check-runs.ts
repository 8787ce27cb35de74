/**
 * The check runs of the fake GitHub (`github-server.ts`): their create and update bodies checked
 * the way GitHub checks them, the stored run they make, and the JSON GitHub returns for one.
 */
import { DOCS, invalid, isRecord, validationFailed, type Reply } from './github-server-errors.ts';
import type { StoredCheckRun } from './github-server-types.ts';

/** GitHub's limits on a check run (docs.github.com/rest/checks/runs). */
const MAX_ANNOTATIONS = 50;
const MAX_OUTPUT_CHARS = 65535;
const MAX_ANNOTATION_TITLE_CHARS = 255;
/** "64 KB", read as 64 * 1024 bytes; the Action keeps its text under 60,000, within either reading. */
const MAX_ANNOTATION_TEXT_BYTES = 64 * 1024;

/** The fields of a check-run request body the fake looks at. */
export interface CheckRunFields {
  name?: string;
  head_sha?: string;
  external_id?: string;
  status?: string;
  conclusion?: string;
  details_url?: string;
  output?: {
    title?: string;
    summary?: string;
    text?: string;
    annotations?: Record<string, unknown>[];
  };
}

const CONCLUSIONS = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out',
];
const STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending'];
const LEVELS = ['notice', 'warning', 'failure'];
const ANNOTATION_REQUIRED = ['path', 'start_line', 'end_line', 'annotation_level', 'message'];

/**
 * GitHub's checks for a create (POST) or update (PATCH) body, with its answers: 422
 * "Invalid request." plus a reason. Messages follow what GitHub sends as seen in the wild
 * ("No more than 50 items are allowed; 77 were supplied.", "Only 65535 characters are
 * allowed; 68372 were supplied."); GitHub also counts the summary in UTF-8 bytes.
 */
export function checkRunProblem(body: unknown, creating: boolean): Reply | undefined {
  if (!isRecord(body)) return invalid('the body must be a JSON object.');
  const missing: string[] = [];
  if (creating) {
    for (const field of ['name', 'head_sha'])
      if (typeof body[field] !== 'string' || body[field] === '') missing.push(field);
  }
  const status = body['status'];
  if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status))) {
    return invalid(
      `For 'properties/status', ${JSON.stringify(status)} is not a member of the enum.`,
    );
  }
  const conclusion = body['conclusion'];
  if (
    conclusion !== undefined &&
    (typeof conclusion !== 'string' || !CONCLUSIONS.includes(conclusion))
  ) {
    return invalid(
      `For 'properties/conclusion', ${JSON.stringify(conclusion)} is not a member of the enum.`,
    );
  }
  if (body['status'] === 'completed' && body['conclusion'] === undefined)
    missing.push('conclusion');
  const output = body['output'];
  if (output !== undefined) {
    if (!isRecord(output))
      return invalid(`For 'properties/output', ${JSON.stringify(output)} is not an object.`);
    for (const field of ['title', 'summary'])
      if (typeof output[field] !== 'string') missing.push(field);
    const tooLong = outputTooLong(output);
    if (tooLong) return tooLong;
    const annotations = output['annotations'];
    if (annotations !== undefined) {
      if (!Array.isArray(annotations))
        return invalid(`For 'properties/annotations', it is not an array.`);
      if (annotations.length > MAX_ANNOTATIONS) {
        return invalid(
          `No more than ${MAX_ANNOTATIONS} items are allowed; ${annotations.length} were supplied.`,
        );
      }
      for (const annotation of annotations as unknown[]) {
        if (!isRecord(annotation)) return invalid('annotations must be objects.');
        const absent = ANNOTATION_REQUIRED.filter((field) => annotation[field] === undefined);
        if (absent.length > 0) missing.push(...absent);
        else if (!LEVELS.includes(String(annotation['annotation_level']))) {
          return invalid(
            `${JSON.stringify(annotation['annotation_level'])} is not a valid annotation_level.`,
          );
        }
        const oversized = annotationTooLong(annotation);
        if (oversized) return oversized;
      }
    }
  }
  if (missing.length === 0) return undefined;
  const names = [...new Set(missing)].map((field) => JSON.stringify(field)).join(', ');
  return invalid(`${names} ${missing.length === 1 ? "wasn't" : "weren't"} supplied.`);
}

/**
 * An annotation's documented limits (docs.github.com/rest/checks/runs): `title` at most 255
 * characters, `message` and `raw_details` at most 64 KB each. GitHub does not document its
 * wording for these; the fake answers in the style of its other 422s.
 */
function annotationTooLong(annotation: Record<string, unknown>): Reply | undefined {
  const title = annotation['title'];
  if (typeof title === 'string' && [...title].length > MAX_ANNOTATION_TITLE_CHARS) {
    return invalid(
      `annotation title: only ${MAX_ANNOTATION_TITLE_CHARS} characters are allowed; ${[...title].length} were supplied.`,
    );
  }
  for (const field of ['message', 'raw_details']) {
    const value = annotation[field];
    if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > MAX_ANNOTATION_TEXT_BYTES) {
      return invalid(
        `annotation ${field}: at most ${MAX_ANNOTATION_TEXT_BYTES} bytes are allowed; ${Buffer.byteLength(value, 'utf8')} were supplied.`,
      );
    }
  }
  return undefined;
}

function outputTooLong(output: Record<string, unknown>): Reply | undefined {
  for (const field of ['summary', 'text']) {
    const value = output[field];
    if (typeof value !== 'string') continue;
    if (value.length > MAX_OUTPUT_CHARS) {
      return invalid(
        `Only ${MAX_OUTPUT_CHARS} characters are allowed; ${value.length} were supplied.`,
      );
    }
    if (Buffer.byteLength(value, 'utf8') > MAX_OUTPUT_CHARS) {
      return validationFailed(
        'CheckRun',
        'custom',
        field,
        `${field} exceeds a maximum bytesize of ${MAX_OUTPUT_CHARS}`,
        `${DOCS}/checks/runs`,
      );
    }
  }
  return undefined;
}

/** A check run made from a create (POST) body GitHub accepted. */
export function newCheckRun(
  id: number,
  owner: string,
  repo: string,
  fields: CheckRunFields,
): StoredCheckRun {
  const annotations = fields.output?.annotations ?? [];
  return {
    id,
    name: fields.name ?? '',
    head_sha: fields.head_sha ?? '',
    external_id: fields.external_id ?? null,
    status: fields.conclusion !== undefined ? 'completed' : (fields.status ?? 'queued'),
    conclusion: fields.conclusion ?? null,
    details_url: fields.details_url ?? null,
    html_url: `https://github.com/${owner}/${repo}/runs/${id}`,
    output: {
      title: fields.output?.title ?? null,
      summary: fields.output?.summary ?? null,
      text: fields.output?.text ?? null,
    },
    annotations: [...annotations],
    batches: [annotations],
  };
}

/** An update (PATCH) GitHub accepted; annotations append, as GitHub's do. */
export function updateCheckRun(run: StoredCheckRun, fields: CheckRunFields): void {
  if (fields.name !== undefined) run.name = fields.name;
  if (fields.status !== undefined) run.status = fields.status;
  if (fields.conclusion !== undefined) {
    run.conclusion = fields.conclusion;
    run.status = 'completed';
  }
  if (fields.details_url !== undefined) run.details_url = fields.details_url;
  if (fields.external_id !== undefined) run.external_id = fields.external_id;
  if (fields.output) {
    run.output.title = fields.output.title ?? run.output.title;
    run.output.summary = fields.output.summary ?? run.output.summary;
    run.output.text = fields.output.text ?? run.output.text;
    const annotations = fields.output.annotations ?? [];
    run.annotations.push(...annotations);
    run.batches.push(annotations);
  }
}

/** A stored check run as GitHub returns it. */
export function checkRunJson(run: StoredCheckRun): Record<string, unknown> {
  return {
    id: run.id,
    name: run.name,
    head_sha: run.head_sha,
    external_id: run.external_id,
    status: run.status,
    conclusion: run.conclusion,
    details_url: run.details_url,
    html_url: run.html_url,
    output: { ...run.output, annotations_count: run.annotations.length },
  };
}
