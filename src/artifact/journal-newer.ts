/**
 * A recovery journal of a format newer than this evalgate reads (its header's `evalgateJournal`
 * above {@link JOURNAL_FORMAT}): not damaged, and not this evalgate's to recover. It is told
 * apart from a file that is no journal at all, so that `--resume` says a newer evalgate wrote it
 * (and which, when its frame records the version) rather than that there is no results file.
 */
import { fstatSync } from 'node:fs';
import { isRecord } from '../shared/is-record.ts';
import { lines, readOpened } from './fd-io.ts';
import { JOURNAL_FORMAT } from './journal.ts';

/** What can be told of a journal of a newer format. */
export interface NewerJournal {
  /** Its header's `evalgateJournal`. */
  format: number;
  /** The process that wrote it and its host, when the header names them as this format does. */
  pid: number | undefined;
  host: string | undefined;
  /** The evalgate version its frame records, when its second line is a frame as here. */
  writtenBy: string | undefined;
}

/** Lines read to find the header and the frame. */
const HEAD_LINES = 2;

/**
 * The journal at `path` when its header says it is of a newer format than this evalgate reads;
 * undefined when it is missing, unreadable, of a format this evalgate reads, or no journal.
 */
export function readNewerJournal(path: string): NewerJournal | undefined {
  return readOpened(path, (fd) => {
    const head: string[] = [];
    for (const { bytes, from, to } of lines(fd, 0, fstatSync(fd).size)) {
      head.push(bytes.toString('utf8', from, to));
      if (head.length === HEAD_LINES) break;
    }
    const header = parsed(head[0] ?? '');
    const format = header?.evalgateJournal;
    if (typeof format !== 'number' || !Number.isSafeInteger(format) || format <= JOURNAL_FORMAT) {
      return undefined;
    }
    const frame = head[1]?.startsWith('F ') === true ? parsed(head[1].slice(2)) : undefined;
    const artifact = frame?.artifact;
    const tool = isRecord(artifact) ? artifact.tool : undefined;
    const version = isRecord(tool) ? tool.version : undefined;
    return {
      format,
      pid: typeof header?.pid === 'number' ? header.pid : undefined,
      host: typeof header?.host === 'string' ? header.host : undefined,
      writtenBy: typeof version === 'string' ? version : undefined,
    };
  });
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
