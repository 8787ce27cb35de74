/**
 * Fixtures for the baseline artifact tests (`test/github-artifacts-*.test.ts`): a results file,
 * an archive of it written by another ZIP implementation, the repository searched, and the fake
 * GitHub that serves the artifacts.
 */
import { beforeEach } from 'node:test';
import type { Octokit } from '../../src/github/octokit.ts';
import { useGitHubServer } from './github-client.ts';
import type { GitHubServer } from './github-server.ts';

/** The text of a small results file: one run of five cases, pretty-printed. */
export const RESULTS = JSON.stringify(
  {
    schemaVersion: 1,
    verdict: 'pass',
    runs: [
      {
        suite: 'qa',
        cases: [0, 1, 2, 3, 4].map((index) => ({ id: `case-${index}`, score: 1 })),
      },
    ],
  },
  null,
  2,
);

/**
 * Written by Python's zipfile (an independent writer), deflated: `evals-results.json` holding
 * {@link RESULTS} and `pr.txt`.
 */
export const PYTHON_ZIP = Buffer.from(
  'UEsDBBQAAAAIAGsFdV317BrXgAAAAMsBAAASAAAAZXZhbHMtcmVzdWx0cy5qc29uq+ZSUFAqTs5IzU0MSy0qzszPU7JSMNQBiZalFqVkJpcA+UoFicXFSmDBotK8YqBINJCtoFANJkEGlGaWpIIUFiaClYEFkxOLUxFqkdWDpTNTQBpAinQN4JogpiXnF4FMM4QL1uoQNMOQCmYYUcEMYyqYYULQDCgrlgvGi+WqBQBQSwMEFAAAAAgAawV1XRgJImIIAAAAKwAAAAYAAABwci50eHQzV0gmEnABAFBLAQIUAxQAAAAIAGsFdV317BrXgAAAAMsBAAASAAAAAAAAAAAAAACAAQAAAABldmFscy1yZXN1bHRzLmpzb25QSwECFAMUAAAACABrBXVdGAkiYggAAAArAAAABgAAAAAAAAAAAAAAgAGwAAAAcHIudHh0UEsFBgAAAAACAAIAdAAAANwAAAAAAA==',
  'base64',
);

/** The repository whose artifacts are searched and downloaded. */
export const target = { owner: 'acme', repo: 'app' };

/**
 * One fake GitHub for a whole test file, as `useGitHubServer` starts it, with its artifacts and
 * storage downloads also emptied before each test. `use` receives the server and a test client.
 */
export function useArtifactServer(use: (server: GitHubServer, octokit: Octokit) => void): void {
  let started: GitHubServer | undefined;
  useGitHubServer((server, octokit) => {
    started = server;
    use(server, octokit);
  });
  beforeEach(() => {
    if (started === undefined) return;
    started.state.artifacts.clear();
    started.state.storageDownloads.length = 0;
  });
}
