import type { Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { compactList } from '../metadata.ts';
import { JudgeCalls, requireChatJudge } from './calls.ts';
import { LLM_REFERENCE_OPTION, nonBlankReference } from './llm-context-precision.ts';
import { CONTEXTS_OPTION, contextsOf } from './rag-shared.ts';
import { askLists, numbered } from './rag-verdicts.ts';

const NAME = 'context-entities-recall';
const TOOL = 'record_entities';

/** Entities listed in metadata are cut short: they are names, not sentences. */
const ENTITY_TEXT_LIMIT = 100;

const SYSTEM = [
  'You extract the entities of texts: people, organisations, places, products, works, events, dates, and quantities with their units.',
  'List each entity once, however often or in whatever form it is mentioned; leave out common nouns and general concepts.',
  'First list the entities of the reference answer. Then list the entities the retrieved passages mention; when a passage mentions an entity of the reference, write it exactly as in the reference list.',
  'Take the entities from the texts alone: do not add entities that are only implied or that you know of.',
].join('\n');

/** Case and runs of white space do not tell two entities apart. */
function entityKey(entity: string): string {
  return entity.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** `entities` without repeats (by `entityKey`), in first-mention order. */
function distinct(entities: readonly string[]): string[] {
  const seen = new Set<string>();
  return entities.filter((entity) => {
    const key = entityKey(entity);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * `context-entities-recall` (Ragas' context entities recall): one call to a chat model lists
 * the entities of the reference and those of the retrieved contexts, and the score is the share
 * of the reference's entities found among the contexts' (case and white space ignored). The
 * lists come from one call so that the model spells an entity the same way in both. A
 * reference that names no entity is an evaluation error rather than a score: Ragas leaves it
 * undefined, and any number would be made up. No contexts score 0 without a call.
 */
export const contextEntitiesRecall = defineBuiltin({
  calls: 'chat',
  summary:
    "Share of the reference's entities that the retrieved contexts mention, entities listed by a judge model (LLM judge).",
  optionsSchema: {
    type: 'object',
    properties: {
      contexts: CONTEXTS_OPTION,
      reference: LLM_REFERENCE_OPTION,
    },
    additionalProperties: false,
  },
  prepare: (_options, context) => requireChatJudge(context, NAME),
  async score(values, args, judge, cut): Promise<Evaluation> {
    const contexts = contextsOf(values, args);
    const reference = nonBlankReference(values, args.testCase);
    if (contexts.length === 0) return { score: 0, metadata: { contexts: 0, found: 0 } };
    const calls = new JudgeCalls(judge, args.signal, cut);
    const lists = await askLists(calls, judge.model, {
      system: SYSTEM,
      prompt: [
        `Reference answer:\n<reference>\n${reference}\n</reference>`,
        '',
        `Retrieved passages:\n${numbered('passage', contexts)}`,
      ].join('\n'),
      tool: TOOL,
      lists: {
        referenceEntities: 'Every entity the reference answer names, each once.',
        contextEntities: 'Every entity the retrieved passages name, each once.',
      },
    });
    const referenceEntities = distinct(lists.referenceEntities ?? []);
    const contextEntities = distinct(lists.contextEntities ?? []);
    if (referenceEntities.length === 0) {
      throw calls.error('the reference names no entity: there is nothing to recall', {
        raw: cut(JSON.stringify(lists), 2000),
      });
    }
    const inContexts = new Set(contextEntities.map(entityKey));
    const missing = referenceEntities.filter((entity) => !inContexts.has(entityKey(entity)));
    const found = referenceEntities.length - missing.length;
    const listed = (entities: readonly string[]): unknown[] =>
      compactList(entities.map((entity) => cut(entity, ENTITY_TEXT_LIMIT)));
    return {
      score: found / referenceEntities.length,
      metadata: {
        found,
        total: referenceEntities.length,
        contexts: contexts.length,
        missing: listed(missing),
        referenceEntities: listed(referenceEntities),
        contextEntities: listed(contextEntities),
      },
      usage: calls.usage,
    };
  },
});
