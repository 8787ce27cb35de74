/** The process's streams and environment, handed to commands so tests can run them in-process. */
export interface CommandContext {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/**
 * Color on a terminal, never when NO_COLOR is set (https://no-color.org). `FORCE_COLOR` decides
 * first, as in Node itself: set (and not `0` or `false`), color even through a pipe (a CI log
 * that renders it); `0` or `false`, none.
 */
export function useColor(ctx: Pick<CommandContext, 'env' | 'stdout'>): boolean {
  const force = ctx.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return Boolean(ctx.stdout.isTTY) && !ctx.env.NO_COLOR && ctx.env.TERM !== 'dumb';
}
