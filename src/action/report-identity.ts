/**
 * Which report this is among those on one pull request: its label names the check run
 * (`evals: <label>`) and titles the comment, and its marker finds the comment again on the next
 * run. Two legs of a matrix job share the config and `GITHUB_JOB`, so the legs' `args` (or the
 * `name` input) must tell them apart, or the last leg would overwrite the others' comment and one
 * green check run would hide a red one from branch protection.
 */

/** A report's label and sticky-comment marker. */
export interface ReportIdentity {
  /** `evals.yaml`, `evals.yaml --grid model=small`, or the `name` input. */
  label: string;
  /** One line, the comment's first: `<!-- evalgate-report config="evals.yaml" job="evals" -->`. */
  marker: string;
}

/** What the identity is made of. */
export interface IdentityParts {
  /** The config, repository-relative. */
  configPath: string;
  /** The `name` input; '' for the default. */
  name: string;
  /** The `evals run` arguments of `args` (ignored in `mode: report`, where nothing runs). */
  args: readonly string[];
  /** `GITHUB_JOB`: the job's id in the workflow. */
  job: string;
}

/**
 * The identity: the `name` input when given, else the config plus the `args`. Without either
 * the marker is the one earlier versions wrote, so an existing comment is still found.
 */
export function reportIdentity(parts: IdentityParts): ReportIdentity {
  const args = parts.args.map(quoteArg).join(' ');
  if (parts.name !== '') {
    return {
      label: parts.name,
      marker: markerOf([
        ['name', parts.name],
        ['job', parts.job],
      ]),
    };
  }
  return {
    label: args === '' ? parts.configPath : `${parts.configPath} ${args}`,
    marker: markerOf([
      ['config', parts.configPath],
      ...(args === '' ? [] : [['args', args] as [string, string]]),
      ['job', parts.job],
    ]),
  };
}

/**
 * `<!-- evalgate-report key="value" … -->`. Values are percent-encoded outside a plain set of
 * characters, so every identity has its own marker and none can end the HTML comment early
 * (`-->`, `--!>`), open another (`<!--`), or span lines.
 */
function markerOf(fields: [string, string][]): string {
  const attributes = fields.map(([key, value]) => `${key}="${encodeValue(value)}"`).join(' ');
  return `<!-- evalgate-report ${attributes} -->`;
}

function encodeValue(value: string): string {
  return value.replace(/[^A-Za-z0-9 ._/@:,+=-]/gu, (char) =>
    [...Buffer.from(char, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}

/** An argument as a shell would need it to read back: quoted when it holds spaces or quotes. */
function quoteArg(arg: string): string {
  return arg === '' || /[\s"'\\]/.test(arg) ? JSON.stringify(arg) : arg;
}
