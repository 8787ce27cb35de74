import type { ReporterContext } from '../report/registry.ts';

/** The process's streams and environment, handed to commands so tests can run them in-process. */
export interface CommandContext {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /**
   * The config's secrets when a file is read before the config is (`config-secrets.ts`): what
   * a message quotes of that file is scrubbed of them, and of the environment's, before it is cut.
   */
  secrets?: readonly string[];
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

/**
 * Whether progress may redraw its one live line on `stderr`: a terminal, but not a dumb one
 * (`TERM=dumb`, Emacs' shell, some CI runners), which shows the escape that clears a line as
 * text; there it gets a log's plain lines. `evals run` and `runTestSuite` both ask this.
 */
export function redrawsLine(ctx: {
  env: Record<string, string | undefined>;
  stderr: { isTTY?: boolean };
}): boolean {
  return Boolean(ctx.stderr.isTTY) && ctx.env.TERM !== 'dumb';
}

/** Where a command's reporters write: its streams, as the terminal it runs in allows. */
export function reporterContext(ctx: CommandContext): ReporterContext {
  return {
    out: (text) => ctx.stdout.write(text),
    err: (text) => ctx.stderr.write(text),
    errIsTTY: redrawsLine(ctx),
    color: useColor(ctx),
    ...(terminalWidth(ctx) !== undefined ? { width: terminalWidth(ctx) } : {}),
    githubActions: ctx.env.GITHUB_ACTIONS === 'true',
  };
}

/** The terminal's columns; through a pipe, `COLUMNS` when set (as a shell exports it). */
export function terminalWidth(ctx: CommandContext): number | undefined {
  if (ctx.stdout.columns) return ctx.stdout.columns;
  const columns = Number(ctx.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
