/**
 * `${VAR}` and `${VAR:-default}` in string values, replaced from the environment at load time.
 * `$${` writes a literal `${`. A variable that is not set and has no default is a problem at
 * that value, never a silent empty string.
 */
import { isMap, isScalar, isSeq, parse, Scalar, type Node } from 'yaml';
import type { ConfigPath } from './types.ts';
import { inexactNumberMessage } from '../testsets/json-numbers.ts';
import { keepsYamlNumber } from './yaml-numbers.ts';
import { keyText } from './yaml-source.ts';

/** One problem with an environment reference. */
/**
 * The value of variable `name` in `env`, or undefined when it is not set. Only an own key counts:
 * `env` is a plain object (or process.env), so `\${constructor}` or `\${__proto__}` would
 * otherwise read what every object inherits and substitute `function Object() …` or
 * `[object Object]` for a variable nobody set.
 */
export function envValue(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  return Object.hasOwn(env, name) ? env[name] : undefined;
}

export interface EnvProblem {
  code: 'env.missing' | 'env.malformed';
  message: string;
}

/**
 * A number `${…}` made that a JSON number cannot hold exactly. Its message quotes the value, cut
 * short, and the value may be a secret (a numeric token): it is written by the caller, with the
 * config's secrets, known only once every value is substituted, removed before the cut.
 */
export interface EnvNumberProblem {
  code: 'config.inexact-number';
  message: (scrub: (text: string) => string) => string;
}

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/**
 * Replaces every reference in `text`. `${VAR:-default}` uses the default when VAR is unset or
 * empty, as a shell does. Missing and malformed references are returned as problems (and
 * replaced by an empty string so the rest of the text can still be checked).
 */
export function substituteEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): { value: string; problems: EnvProblem[] } {
  const { value, problems } = substitute(text, env);
  return { value, problems };
}

/** {@link substituteEnv}, with what each reference substituted was (`${CONC}`, its default). */
function substitute(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): { value: string; problems: EnvProblem[]; origins: string[] } {
  if (!text.includes('$')) return { value: text, problems: [], origins: [] };
  const problems: EnvProblem[] = [];
  // What each substituted reference gave, for messages that quote the value.
  const origins: string[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (!text.startsWith('${', i)) {
      out += text[i];
      i += 1;
      continue;
    }
    const end = text.indexOf('}', i + 2);
    if (end === -1) {
      problems.push({
        code: 'env.malformed',
        message: `unclosed environment reference in ${JSON.stringify(text)}: write \${NAME} or \${NAME:-default}, or $\${ for a literal \${`,
      });
      out += text.slice(i);
      break;
    }
    const inner = text.slice(i + 2, end);
    i = end + 1;
    const match = REFERENCE.exec(inner);
    if (!match) {
      problems.push({
        code: 'env.malformed',
        message: `malformed environment reference \${${inner}}: write \${NAME} or \${NAME:-default}, or $\${ for a literal \${`,
      });
      continue;
    }
    const name = match[1] ?? '';
    const fallback = match[2];
    const value = envValue(env, name);
    if (fallback !== undefined && (value === undefined || value === '')) {
      out += fallback;
      origins.push(`the default of \${${name}}`);
    } else if (value !== undefined) {
      out += value;
      origins.push(`\${${name}}`);
    } else {
      problems.push({
        code: 'env.missing',
        message: `environment variable ${name} is not set (write \${${name}:-default} to give a default)`,
      });
    }
  }
  return { value: out, problems, origins };
}

/** Where substituted values came from, for messages that quote them. */
export interface EnvOrigins {
  /**
   * ` (from ${CONC})` when `value` at `path` is what `${…}` references made of the config's
   * text, else `''`: a message that quotes the value then says where it came from, since the
   * config shows only the reference (`found "abc" (from ${CONC})`). A value written in the config
   * as it is, or changed since, gets nothing.
   */
  note(path: ConfigPath, value: unknown): string;
}

/**
 * Substitutes references in every string value of the document, in place (keys are left
 * alone). A plain (unquoted) scalar whose substituted text reads as a number or boolean
 * becomes one, as if the text had been substituted before parsing, so
 * `concurrency: ${CONCURRENCY:-4}` is the number 4; quote the value to keep a string. The values
 * made are recorded for {@link envOriginNote}, replacing those of the document before.
 */
export function substituteEnvInDocument(
  root: Node | null,
  env: Readonly<Record<string, string | undefined>>,
  report: (node: Scalar, path: ConfigPath, problem: EnvProblem | EnvNumberProblem) => void,
): EnvOrigins {
  const substituted = new Map<string, { value: unknown; origins: string[]; quoted: boolean }>();
  const visit = (node: unknown, path: ConfigPath): void => {
    if (isScalar(node)) {
      if (typeof node.value !== 'string' || !node.value.includes('$')) return;
      const original = node.value;
      const { value, problems, origins } = substitute(original, env);
      for (const problem of problems) report(node, path, problem);
      const plain = node.type === Scalar.PLAIN;
      const typed = plain && value !== original ? retype(value) : value;
      // A number the text does not read as (`${ID}` of 20 digits) is refused as a written one is.
      if (typeof typed === 'number' && !keepsYamlNumber(value.trim(), typed)) {
        const text = value.trim();
        const from = [...new Set(origins)].join(' and ');
        const number = { offset: 0, text, read: typed };
        report(node, path, {
          code: 'config.inexact-number',
          message: (scrub) => `${inexactNumberMessage(number, scrub)} (from ${from})`,
        });
      }
      node.value = typed;
      if (origins.length > 0) {
        // A quoted value that would have been a number or boolean unquoted: a message quoting
        // it says why it is a string (quoting is what the YAML hint asks for in `[ ]`, `{ }`).
        const quoted = !plain && retype(value) !== value;
        substituted.set(JSON.stringify(path), { value: node.value, origins, quoted });
      }
    } else if (isMap(node)) {
      for (const pair of node.items) visit(pair.value, [...path, keyText(pair.key)]);
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...path, index]));
    }
    // Aliases are skipped: the anchored node is visited where it is written.
  };
  visit(root, []);
  return {
    note(path, value) {
      const made = substituted.get(JSON.stringify(path));
      if (made === undefined || !Object.is(made.value, value)) return '';
      const from = `from ${[...new Set(made.origins)].join(' and ')}`;
      return made.quoted ? ` (${from}; ${QUOTED_STAYS_STRING})` : ` (${from})`;
    },
  };
}

/** Why a quoted `"${VAR}"` is a string, and how to give a number or boolean instead. */
const QUOTED_STAYS_STRING =
  'a quoted value stays a string: give a number or a boolean from the environment unquoted, in block style on a line of its own (`concurrency: ${CONC}`)';

function retype(text: string): unknown {
  try {
    const value: unknown = parse(text);
    return typeof value === 'number' || typeof value === 'boolean' ? value : text;
  } catch {
    return text;
  }
}
