/**
 * Why a RAG, similarity or battle built-in gave its score, read from the metadata it records: what was
 * counted and the texts that cost it the score (`1 of 2 claims supported by the contexts;
 * unsupported: "It is in Rome."`). Without these, a failing case of `faithfulness` or
 * `context-recall` said only its score: the claims, items and entities that decide it sat in the
 * artifact, unread by the summary, `evals show`, the JUnit message and the HTML report's why;
 * a battle said only `outcome: loss`.
 * Read by shape, as the other readers of evaluation-reason.ts are.
 */
import { formatScore, plural } from './labels.ts';
import { formatCount } from '../shared/format-count.ts';

type Metadata = Record<string, unknown>;

/** A reading of one built-in's metadata, or undefined when the shape is not its own. */
export type Reader = (metadata: Metadata) => string | undefined;

const isNumber = (value: unknown): value is number => typeof value === 'number';

/**
 * The texts of a metadata list, quoted and joined: strings as they are, objects by their `key`
 * field when `keep` takes them; the `… N more` note a long list ends with stays unquoted.
 */
function quoted(
  list: unknown,
  key?: string,
  keep: (item: Record<string, unknown>) => boolean = () => true,
): string {
  if (!Array.isArray(list)) return '';
  const texts = list.flatMap((item): string[] => {
    if (typeof item === 'string') return [item.startsWith('… ') ? item : JSON.stringify(item)];
    if (key === undefined || item === null || typeof item !== 'object') return [];
    const record = item as Record<string, unknown>;
    const text = record[key];
    return keep(record) && typeof text === 'string' ? [JSON.stringify(text)] : [];
  });
  return texts.join(', ');
}

/** `head` and, when there are any, the texts behind the score after `label`. */
const withTexts = (head: string, label: string, texts: string): string =>
  texts === '' ? head : `${head}; ${label}: ${texts}`;

/** `2 of 3 contexts relevant, at ranks 1, 3`: precision is about where they are. */
function ranked(count: unknown, contexts: unknown, ranks: unknown, word: string): string {
  const list = Array.isArray(ranks) ? ranks.map(String) : [];
  const where =
    list.length === 0 ? '' : `, at rank${list.length === 1 ? '' : 's'} ${list.join(', ')}`;
  return `${formatCount(Number(count))} of ${plural(Number(contexts), 'context')} ${word}${where}`;
}

/** `loss` as said of the output shown first or second. */
const OUTCOME_WORDS: Record<string, string> = { win: 'won', loss: 'lost', tie: 'tie' };

/**
 * A battle: `{ outcome, verdicts: [{ order, outcome, reason }] }`, or a case recorded instead of
 * judged. A loss quotes the judge's reason; a tie says whether the verdict flipped with the order,
 * the judge's position bias that the two orders are there to catch.
 */
const battleReader: Reader = (m) => {
  if (m.recorded === true) return "recorded as this case's baseline, not judged";
  if (typeof m.outcome !== 'string' || !Array.isArray(m.verdicts)) return undefined;
  const verdicts = m.verdicts as { outcome?: unknown; reason?: unknown }[];
  const reason = verdicts.find((v) => v.outcome === m.outcome && typeof v.reason === 'string');
  const because =
    typeof reason?.reason === 'string' && reason.reason !== '' ? `: ${reason.reason}` : '';
  if (m.outcome === 'win') return `the output won in both orders${because}`;
  if (m.outcome === 'loss') return `the baseline won in both orders${because}`;
  const [first, second] = verdicts.map(
    (v) => OUTCOME_WORDS[String(v.outcome)] ?? String(v.outcome),
  );
  if (first === 'tie' && second === 'tie') return `a tie in both orders${because}`;
  return `a tie: the verdict changed with the order (output shown first: ${first}; shown second: ${second})`;
};

export const ragReaders: Reader[] = [
  battleReader,
  // Any retrieval measure with nothing retrieved: that is the whole story.
  (m) => (m.contexts === 0 && !isNumber(m.claims) ? 'no context retrieved' : undefined),
  // faithfulness: { supported, total, claims: [{ claim, supported }], noClaims? }
  (m) => {
    if (!isNumber(m.supported) || !isNumber(m.total) || !Array.isArray(m.claims)) return undefined;
    if (m.noClaims === true) return 'the answer makes no claim';
    const unsupported = quoted(m.claims, 'claim', (claim) => claim.supported === false);
    const more = isNumber(m.claimsOmitted)
      ? ` (${formatCount(m.claimsOmitted)} more not listed)`
      : '';
    return withTexts(
      `${formatCount(m.supported)} of ${plural(m.total, 'claim')} supported by the contexts`,
      'unsupported',
      unsupported === '' ? '' : unsupported + more,
    );
  },
  // context-recall: { found, total, items: [{ item, found }] }
  (m) =>
    isNumber(m.found) && isNumber(m.total) && Array.isArray(m.items)
      ? withTexts(
          `${formatCount(m.found)} of ${plural(m.total, 'reference item')} found in the contexts`,
          'not found',
          quoted(m.items, 'item', (item) => item.found === false),
        )
      : undefined,
  // context-entities-recall: { found, total, missing: [entity] }
  (m) =>
    isNumber(m.found) && isNumber(m.total) && Array.isArray(m.missing)
      ? withTexts(
          `${formatCount(m.found)} of ${formatCount(m.total)} reference ${m.total === 1 ? 'entity' : 'entities'} found in the contexts`,
          'missing',
          quoted(m.missing),
        )
      : undefined,
  // llm-context-recall: { attributed, total, notAttributed: [sentence] }
  (m) =>
    isNumber(m.attributed) && isNumber(m.total)
      ? withTexts(
          `${formatCount(m.attributed)} of ${plural(m.total, 'reference sentence')} supported by the contexts`,
          'unsupported',
          quoted(m.notAttributed),
        )
      : undefined,
  // context-precision: { contexts, relevant, relevantRanks }
  (m) =>
    isNumber(m.relevant) && isNumber(m.contexts)
      ? ranked(m.relevant, m.contexts, m.relevantRanks, 'relevant')
      : undefined,
  // llm-context-precision: { contexts, useful, usefulRanks }
  (m) =>
    isNumber(m.useful) && isNumber(m.contexts)
      ? ranked(m.useful, m.contexts, m.usefulRanks, 'useful')
      : undefined,
  // factual-correctness: { mode, precision?, recall?, unsupported?, missing?, noClaims? }
  (m) => {
    if (typeof m.mode !== 'string' || !isNumber(m.responseClaims)) return undefined;
    if (m.noClaims === true) return 'the response states nothing';
    const parts = [
      isNumber(m.precision) ? `precision ${formatScore(m.precision)}` : '',
      isNumber(m.recall) ? `recall ${formatScore(m.recall)}` : '',
    ].filter((part) => part !== '');
    const unsupported = quoted(m.unsupported);
    const missing = quoted(m.missing);
    return [
      parts.join(', '),
      unsupported === '' ? '' : `not in the reference: ${unsupported}`,
      missing === '' ? '' : `missing: ${missing}`,
    ]
      .filter((part) => part !== '')
      .join('; ');
  },
  // noise-sensitivity: { mode, claims, noisy, incorrect?, noisyClaims? }
  (m) => {
    if (typeof m.mode !== 'string' || !isNumber(m.claims) || !isNumber(m.noisy)) return undefined;
    if (m.claims === 0) return 'the response makes no claim';
    if (m.contexts === 0) return 'no context retrieved';
    const kind = m.mode === 'irrelevant' ? 'an irrelevant' : 'a relevant';
    // `incorrect` is recorded once the reference was asked; `noisy` of them came from contexts.
    const head = isNumber(m.incorrect)
      ? `${formatCount(m.incorrect)} of ${plural(m.claims, 'claim')} not in the reference, ${formatCount(m.noisy)} of them stated by ${kind} context`
      : `${formatCount(m.noisy)} of ${plural(m.claims, 'claim')} wrong and stated by ${kind} context`;
    return withTexts(head, 'misled', quoted(m.noisyClaims, 'claim'));
  },
  // semantic-similarity: { cosine } or { emptyText }
  (m) => (isNumber(m.cosine) ? `cosine similarity ${formatScore(m.cosine)}` : undefined),
  (m) =>
    m.emptyText === 'actual' || m.emptyText === 'expected'
      ? `the ${m.emptyText} text is empty`
      : undefined,
];
