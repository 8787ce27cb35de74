/**
 * A case's label: the readable name of a case whose id is a hash, from its data. Shared by the
 * reports, which name cases by it, and the comparison, which records the label of a case only
 * BASE has (a removed case), since no reader of the comparison has BASE's data to name it from.
 */
import type { CaseResult } from '../types/index.ts';

/** sha256 hex: a content id, or the hash of a suite's `hash:` fields. */
const HASH_ID = /^[0-9a-f]{64}$/;

/** Data fields that name a row, in the order they are preferred as its label. */
const LABEL_FIELDS = ['name', 'title', 'description', 'input', 'question', 'prompt', 'query'];

/**
 * A readable name for a case whose id is a hash (no dedup id): its `name`, `description`,
 * `input`… field, else its first string field, on one line. `null` for a case with a dedup id
 * (the id is the name) or with no string field.
 */
export function caseLabel(result: Pick<CaseResult, 'id' | 'data'>): string | null {
  return labelIn(result, caseLabelField(result));
}

/** The label {@link caseLabel} gives, read from `field` (what `caseLabelField` named). */
export function labelIn(result: Pick<CaseResult, 'data'>, field: string | null): string | null {
  if (field === null) return null;
  const text = (result.data as Record<string, string>)[field] ?? '';
  return text.slice(0, 400).replace(/\s+/g, ' ').trim();
}

/** The data field {@link caseLabel} reads the label from; `null` when it gives none. */
export function caseLabelField(result: Pick<CaseResult, 'id' | 'data'>): string | null {
  if (!HASH_ID.test(result.id)) return null;
  const data = result.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const fields = data as Record<string, unknown>;
  const isText = (key: string): boolean => typeof fields[key] === 'string' && fields[key] !== '';
  return LABEL_FIELDS.find(isText) ?? Object.keys(fields).find(isText) ?? null;
}
