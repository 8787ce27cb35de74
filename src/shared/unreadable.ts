/**
 * Why a file could not be read, in words rather than as the errno line (`ELOOP: too many
 * symbolic links encountered, open '/abs/path'`), for the readers of the user's files: the
 * config, testsets, prompt files. Undefined for a cause without words of its own, which the
 * caller then reports with the error's message.
 */
const REASONS: ReadonlyMap<string, string> = new Map([
  ['EISDIR', 'it is a directory'],
  // Also a chain of more links than the system follows (40 on Linux): as good as a loop.
  ['ELOOP', 'a loop of symbolic links; point it at a file'],
  ['EACCES', 'permission denied'],
]);

export function unreadableReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code !== undefined ? REASONS.get(code) : undefined;
}
