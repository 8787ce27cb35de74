/** The process's streams and environment, handed to commands so tests can run them in-process. */
export interface CommandContext {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** Color only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(ctx: CommandContext): boolean {
  return Boolean(ctx.stdout.isTTY) && !ctx.env.NO_COLOR && ctx.env.TERM !== 'dumb';
}
