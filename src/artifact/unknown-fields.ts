/**
 * Properties of a results artifact that this evalgate's schema does not list: what a newer
 * evalgate of the same `schemaVersion` added. Readers that only read ignore them and say so in
 * one note; readers that write an artifact from what they read (`evals merge`, `--resume`)
 * refuse them rather than drop them (see docs/artifact.md, "Artifacts across evalgate
 * versions").
 */
import schema from '../../schemas/results.schema.json' with { type: 'json' };
import { isRecord } from '../shared/is-record.ts';
import { printable } from '../shared/text-table.ts';

/** A node of the results schema, as far as the walk reads it. */
interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
}

/** How many distinct unknown fields are collected: past it a note says "or more". */
export const COLLECTED_UNKNOWN = 100;

/** The unknown fields of one file, each once, as a pointer with `*` for indexes and map keys. */
export interface UnknownFields {
  /** `/runs/*\/cases/*\/reviewer`, each once; at most {@link COLLECTED_UNKNOWN}. */
  fields: Set<string>;
  /** False when more were met than were kept. */
  all: boolean;
  /**
   * True when the file's `comparison` was recorded by an evalgate before 2026-11-26, in a shape
   * this one does not read, and was left out (`old-comparison.ts`).
   */
  oldComparison?: boolean;
}

/** An empty collection, for {@link collectUnknownFields} to add to. */
export function noUnknownFields(): UnknownFields {
  return { fields: new Set(), all: true };
}

const root = schema as unknown as SchemaNode & { definitions: Record<string, SchemaNode> };

/** The definitions a part of the artifact is validated against on its own. */
export type SchemaPart = 'results' | 'run' | 'case';

function resolved(node: SchemaNode): SchemaNode {
  // The schema refers only to its own definitions (`#/definitions/NAME`).
  const name = node.$ref?.startsWith('#/definitions/') ? node.$ref.slice(14) : undefined;
  return name !== undefined ? (root.definitions[name] ?? node) : node;
}

/**
 * Adds to `into` the properties of `value` (a valid `part` once unknown properties are allowed)
 * that the schema does not list, `prefix` being where `value` is (`/runs/*` for a run read on
 * its own). A walk of the schema beside the value, so it follows the schema as it grows.
 */
export function collectUnknownFields(
  part: SchemaPart,
  value: unknown,
  into: UnknownFields,
  prefix = '',
): void {
  walk(part === 'results' ? root : (root.definitions[part] ?? {}), value, prefix, into);
}

function walk(given: SchemaNode, value: unknown, at: string, into: UnknownFields): void {
  const node = resolved(given);
  if (Array.isArray(value)) {
    if (node.items !== undefined) for (const item of value) walk(node.items, item, `${at}/*`, into);
    return;
  }
  if (!isRecord(value)) return;
  const properties = node.properties ?? {};
  const extra = node.additionalProperties;
  for (const [key, child] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) {
      walk(properties[key] as SchemaNode, child, `${at}/${segment(key)}`, into);
    } else if (typeof extra === 'object') {
      walk(extra, child, `${at}/*`, into); // a map (evaluator ids, file paths): its keys are data
    } else if (extra === false) {
      add(into, `${at}/${segment(key)}`);
    }
  }
}

function add(into: UnknownFields, field: string): void {
  if (into.fields.has(field)) return;
  if (into.fields.size >= COLLECTED_UNKNOWN) into.all = false;
  else into.fields.add(field);
}

/** A key as a pointer segment; a long one by its length (a note never cuts a file's text). */
function segment(key: string): string {
  if (key.length > 40) return `(a key of ${key.length} characters)`;
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** How many fields a note lists by name. */
const LISTED_UNKNOWN = 3;

/**
 * The note of a reader that ignored `unknown`, the unknown fields of file `name` written by
 * evalgate `writtenBy`, this one being `own`: `r.json was written by evalgate 1.4.0, newer than
 * this one (1.3.0): 2 fields it does not know were ignored (/runs/*\/cases/*\/reviewer, ...)`.
 * Null when there are none.
 */
export function unknownFieldsNote(
  name: string,
  writtenBy: string,
  own: string,
  unknown: UnknownFields,
): string | null {
  const count = unknown.fields.size;
  // The recorded comparison alone: it was not written by a newer evalgate, but an older one.
  const old =
    unknown.oldComparison === true
      ? `${printable(name)}: its comparison with a baseline, recorded by evalgate ${printable(shortVersion(writtenBy))} in the shape used before 2026-11-26, was ignored (this evalgate does not read that shape); its results are read as usual, and evals compare BASE ${printable(name)} compares them again`
      : null;
  if (count === 0) return old;
  const fieldsNote = unknownNote(name, writtenBy, own, unknown, count);
  return old === null ? fieldsNote : `${fieldsNote}; ${old}`;
}

function unknownNote(
  name: string,
  writtenBy: string,
  own: string,
  unknown: UnknownFields,
  count: number,
): string {
  const listed = [...unknown.fields].sort().slice(0, LISTED_UNKNOWN).join(', ');
  const more = count > LISTED_UNKNOWN ? ', \u2026' : '';
  const fields = `${unknown.all ? count : `${count} or more`} field${count === 1 && unknown.all ? '' : 's'}`;
  const were = count === 1 && unknown.all ? 'was' : 'were';
  return `${printable(name)} ${writtenByText(writtenBy, own)}: ${fields} it does not know ${were} ignored (${printable(listed)}${more})`;
}

/**
 * `was written by evalgate 1.4.0, newer than this one (1.3.0)`; when that version is not newer,
 * it says so: the fields then come from a hand edit or another tool.
 */
export function writtenByText(writtenBy: string, own: string): string {
  const shown = printable(shortVersion(writtenBy));
  return isNewerVersion(writtenBy, own)
    ? `was written by evalgate ${shown}, newer than this one (${own})`
    : `says it was written by evalgate ${shown}, not newer than this one (${own})`;
}

/** A version as a note shows it: at most 40 characters (a file may say anything). */
function shortVersion(version: string): string {
  return version.length > 40 ? `${version.slice(0, 40)}\u2026` : version;
}

/** Whether version `a` is newer than version `b` (`major.minor.patch`, a pre-release older). */
export function isNewerVersion(a: string, b: string): boolean {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (pa === null || pb === null) return false;
  for (let i = 0; i < 3; i++) {
    if (pa.numbers[i] !== pb.numbers[i]) return (pa.numbers[i] ?? 0) > (pb.numbers[i] ?? 0);
  }
  // 1.2.0 is newer than 1.2.0-rc.1; two pre-releases of one version are not told apart.
  return pa.pre === undefined && pb.pre !== undefined;
}

function parseVersion(text: string): { numbers: number[]; pre?: string } | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(text);
  if (match === null) return null;
  const numbers = [Number(match[1]), Number(match[2]), Number(match[3])];
  return match[4] !== undefined ? { numbers, pre: match[4] } : { numbers };
}
