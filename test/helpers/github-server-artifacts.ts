/**
 * The Actions routes of the fake GitHub (`github-server.ts`): the artifact list (`?name=`, newest
 * first, paged), an artifact's download (302 to the storage host, 410 once expired), the run that
 * uploaded one, and the storage host itself, which wants no token (the signed URL is the
 * credential) and serves bytes, not JSON.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { DOCS, error, type Reply } from './github-server-errors.ts';
import { artifactJson, page, workflowRunJson } from './github-server-replies.ts';
import type { GitHubServer, GitHubServerState, StoredArtifact } from './github-server-types.ts';

/** Where the fake answers: its API's URL, and the storage host's a download redirects to. */
export interface FakeHosts {
  url: string;
  storageUrl: string;
}

/** A `GET` of the artifacts or a workflow run; undefined for another path. */
export function actionsReply(
  state: GitHubServerState,
  { url, storageUrl }: FakeHosts,
  path: string,
  query: Record<string, string>,
): Reply | undefined {
  let match: RegExpExecArray | null;
  if ((match = /^\/repos\/([^/]+)\/([^/]+)\/actions\/artifacts$/.exec(path))) {
    const [, owner = '', repo = ''] = match;
    // GitHub's `name` filter is an exact match. The order is not documented; GitHub answers
    // newest first, and so does the fake.
    const name = query['name'];
    const all = [...state.artifacts.values()]
      .filter((artifact) => name === undefined || artifact.name === name)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
    const { items, headers } = page(url, path, query, all);
    return {
      status: 200,
      body: {
        total_count: all.length,
        artifacts: items.map((artifact) => artifactJson(url, owner, repo, artifact)),
      },
      headers,
    };
  }

  if ((match = /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/attempts\/(\d+)\/jobs$/.exec(path))) {
    const all = state.jobs.get(`${match[1]}/${match[2]}`) ?? [];
    const { items, headers } = page(url, path, query, all);
    return { status: 200, body: { total_count: all.length, jobs: items }, headers };
  }

  if ((match = /^\/repos\/[^/]+\/[^/]+\/actions\/artifacts\/(\d+)\/([^/]+)$/.exec(path))) {
    const artifact = state.artifacts.get(Number(match[1]));
    const docs = `${DOCS}/actions/artifacts#download-an-artifact`;
    if (!artifact || match[2] !== 'zip') return error(404, 'Not Found', docs);
    if (artifact.expired) return error(410, 'Artifact has expired', docs);
    return {
      status: 302,
      body: Buffer.alloc(0),
      // Like GitHub's signed storage URLs: another host, and the query is the credential.
      headers: { location: `${storageUrl}/_storage/${artifact.id}?sig=secret-signature&se=1` },
    };
  }

  if ((match = /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)$/.exec(path))) {
    const runId = Number(match[1]);
    const uploaded = [...state.artifacts.values()].find((artifact) => artifact.runId === runId);
    if (!uploaded)
      return error(404, 'Not Found', `${DOCS}/actions/workflow-runs#get-a-workflow-run`);
    return { status: 200, body: workflowRunJson(uploaded) };
  }

  return undefined;
}

/** The storage host: no token wanted (the URL is the credential), bytes not JSON. */
export function storageReply(
  state: GitHubServerState,
  path: string,
  headers: IncomingHttpHeaders,
): Reply {
  const id = Number(/^\/_storage\/(\d+)$/.exec(path)?.[1] ?? NaN);
  state.storageDownloads.push({ artifactId: id, authorization: headers.authorization });
  if (headers.authorization !== undefined) {
    // What Azure Blob Storage says to a signed URL that also carries a token.
    return { status: 400, body: Buffer.from('InvalidAuthenticationInfo') };
  }
  const artifact = state.artifacts.get(id);
  if (!artifact) return { status: 404, body: Buffer.from('BlobNotFound') };
  return { status: 200, body: artifact.zip, headers: { 'content-type': 'application/zip' } };
}

/** An artifact to seed, with the defaults {@link GitHubServer.addArtifact} documents. */
export function storedArtifact(
  id: number,
  artifact: Parameters<GitHubServer['addArtifact']>[0],
  now: () => string,
): StoredArtifact {
  return {
    id,
    name: artifact.name,
    branch: artifact.branch,
    created_at: artifact.createdAt ?? now(),
    expired: artifact.expired ?? false,
    zip: artifact.zip,
    runId: artifact.runId ?? 70000 + id,
    headSha: artifact.headSha ?? id.toString(16).padStart(40, '0'),
    fromFork: artifact.fromFork ?? false,
    event: artifact.event ?? 'push',
  };
}
