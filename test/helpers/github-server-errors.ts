/**
 * The error answers of the fake GitHub (`github-server.ts`): the shape of a reply, GitHub's error
 * bodies with their documentation links, and the one type guard the body checks share.
 */

/** An answer to send: status, JSON body (or bytes), extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Where GitHub's REST documentation starts; error bodies link below it. */
export const DOCS = 'https://docs.github.com/rest';

/** A 422 "Invalid request." with GitHub's reason, as the checks API sends it. */
export function invalid(reason: string): Reply {
  return error(422, `Invalid request.\n\n${reason}`, `${DOCS}/checks/runs`);
}

/** An error body as GitHub sends it: message, documentation link, status as a string. */
export function error(status: number, message: string, documentationUrl: string): Reply {
  return { status, body: { message, documentation_url: documentationUrl, status: String(status) } };
}

/** A 422 "Validation Failed" naming the resource, code and field, as GitHub sends it. */
export function validationFailed(
  resource: string,
  code: string,
  field: string,
  message: string,
  documentationUrl: string,
): Reply {
  return {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ resource, code, field, message }],
      documentation_url: documentationUrl,
      status: '422',
    },
  };
}

/** A JSON object, not null and not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
