import { createRequire } from 'node:module';

/** The package version, read from package.json (one level above both src/ and lib/). */
export const toolVersion: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
