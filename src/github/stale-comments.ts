/**
 * Stale sticky comments: earlier reports with this report's marker that another identity wrote
 * (the workflow switched tokens) and this token may not edit. Each is hidden as outdated once;
 * one already hidden (by an earlier run, or by a person) is left alone and not named again, so
 * a pull request's later runs neither hide it again nor warn about it on every push.
 */
import { toReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';

/** A marker comment of another identity's, left in place. */
export interface StaleComment {
  url: string;
  /** Its author's login, e.g. `github-actions[bot]`. */
  author: string;
  /** Whether it is now minimized ("hidden as outdated") on the pull request. */
  hidden: boolean;
  /** Why it could not be hidden, when GitHub said (a refusal, a rate limit). */
  why?: string;
}

/** A listed issue comment, as much of it as is read here. */
export interface StaleCandidate {
  node_id?: string;
  html_url: string;
  user?: { login: string; type: string } | null;
}

/** Stale comments hidden in one run at most: a switch of tokens leaves one or two. */
const MAX_STALE = 5;

/** Node ids asked about in one query: GraphQL's `nodes` takes at most 100, refusing the query. */
const MAX_NODES = 100;

/**
 * Queries asked at most: a pull request with over 1,000 stale reports is no pull request a
 * switch of tokens leaves, and those past them are taken as shown.
 */
const MAX_NODE_QUERIES = 10;

/**
 * Hides each stale comment not hidden yet as outdated (GraphQL `minimizeComment`, classifier
 * OUTDATED), which GitHub allows anyone with triage or write access, whoever wrote the comment,
 * and names it. Best effort: a refusal or an older GitHub Enterprise Server without the mutation
 * leaves the comment shown, and the caller says which comment is current. When GitHub does not
 * say which are hidden already, each is hidden (again) and named, as if none were.
 */
export async function hideStale(
  octokit: Octokit,
  stale: readonly StaleCandidate[],
): Promise<StaleComment[]> {
  const named: StaleComment[] = [];
  for (const comment of await firstShown(octokit, stale, MAX_STALE)) {
    let hidden = false;
    let why: string | undefined;
    if (comment.node_id !== undefined && comment.node_id !== '') {
      try {
        const answer = await octokit.graphql<{
          minimizeComment?: { minimizedComment?: { isMinimized?: boolean } | null } | null;
        }>(
          'mutation($id: ID!) { minimizeComment(input: { subjectId: $id, classifier: OUTDATED }) { minimizedComment { isMinimized } } }',
          { id: comment.node_id },
        );
        hidden = answer.minimizeComment?.minimizedComment?.isMinimized === true;
      } catch (error) {
        // Not allowed, rate limited, or no such mutation: the comment stays shown and is named.
        why = graphqlRefusal(error);
      }
    }
    const author = comment.user?.login ?? 'someone';
    named.push({ url: comment.html_url, author, hidden, ...(why !== undefined && { why }) });
  }
  return named;
}

/**
 * The first `wanted` of `comments`, in order, that GitHub does not say are minimized already. They
 * are asked about 100 at a time (the REST list pages at 100 too, so a pull request may well have
 * more), and no further than the comments it takes to find `wanted`.
 */
async function firstShown(
  octokit: Octokit,
  comments: readonly StaleCandidate[],
  wanted: number,
): Promise<StaleCandidate[]> {
  const shown: StaleCandidate[] = [];
  // Past MAX_NODE_QUERIES each chunk is taken whole, so the loop ends one chunk later.
  for (let start = 0; start < comments.length && shown.length < wanted; start += MAX_NODES) {
    const chunk = comments.slice(start, start + MAX_NODES);
    const asked = start / MAX_NODES < MAX_NODE_QUERIES;
    const hidden = asked ? await minimizedOf(octokit, chunk) : new Set<string>();
    shown.push(...chunk.filter((c) => c.node_id === undefined || !hidden.has(c.node_id)));
  }
  return shown.slice(0, wanted);
}

/** What GraphQL's `nodes` answers of an issue comment (null: no such node, or not readable). */
type NodeState = { id?: string; isMinimized?: boolean } | null;

/**
 * The node ids of the comments GitHub says are minimized already (`isMinimized`, whatever their
 * `minimizedReason`: hidden as outdated by an earlier run, or by a person as resolved, say), in
 * one query: at most MAX_NODES comments. Empty when it does not say: the query refused, or
 * answered without data.
 */
async function minimizedOf(
  octokit: Octokit,
  comments: readonly StaleCandidate[],
): Promise<Set<string>> {
  const ids = comments
    .map((c) => c.node_id)
    .filter((id): id is string => id !== undefined && id !== '');
  if (ids.length === 0) return new Set();
  let nodes: readonly NodeState[] | undefined;
  try {
    const answer = await octokit.graphql<{ nodes?: NodeState[] }>(
      'query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { id isMinimized } } }',
      { ids },
    );
    nodes = answer.nodes;
  } catch (error) {
    // GitHub answers a node it cannot resolve with null and an error beside the others' data,
    // which octokit throws with that data.
    nodes = (error as { data?: { nodes?: NodeState[] } } | null)?.data?.nodes;
  }
  const minimized = new Set<string>();
  for (const node of nodes ?? []) {
    if (node?.isMinimized === true && typeof node.id === 'string') minimized.add(node.id);
  }
  return minimized;
}

/**
 * What GitHub said to a refused GraphQL call, on one line: the errors of a 200 answer (GraphQL
 * refuses so, a spent rate limit too), or the status and hint of an HTTP refusal.
 */
function graphqlRefusal(error: unknown): string {
  // octokit's GraphqlResponseError holds them as `errors`; plugin-throttling's error for a spent
  // rate limit, as the answer's `data.errors`.
  const thrown = error as { errors?: unknown; data?: { errors?: unknown } } | null;
  const errors = thrown?.errors ?? thrown?.data?.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const said = errors
      .map((entry) => {
        const { type, message } = (entry ?? {}) as { type?: unknown; message?: unknown };
        return [type, message].filter((part) => typeof part === 'string').join(': ');
      })
      .filter((text) => text !== '');
    return `GitHub's GraphQL API answered ${said.join('; ') || 'an error'}`;
  }
  const what = 'hide it';
  return toReportingFailure(error, what).message.slice(`could not ${what}: `.length);
}
