/**
 * Words of the commands evals prints for the user to paste (`evals show FILE --failed`, the
 * `--resume` command, `cd DIR`) and of the command lines it shows for a case, quoted for a POSIX
 * shell. One place, so that every printed command quotes alike.
 */

/** Single-quotes `value` for /bin/sh, so a case's text is one word whatever it holds. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `value` as one POSIX shell word: as it is when that is safe, else single-quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : shellQuote(value);
}

/** A relative path that starts with `-`, as `./-…`, so no command reads it as an option. */
export function notOption(path: string): string {
  return path.startsWith('-') ? `./${path}` : path;
}

/** A path as one word of a printed command: never read as an option, quoted when it must be. */
export function pathWord(path: string): string {
  return shellWord(notOption(path));
}
