import { realpathSync } from 'node:fs';

/** `path` with links resolved, to compare two names of one file; as given when it does not exist. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
