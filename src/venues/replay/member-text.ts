/**
 * History member texts of the replay server, kept where they already are. The simulated universe's history
 * maps are one 170 MB and one 60 MB file; held as strings (the member texts are slices that pin the whole
 * file text) they were a quarter of a GB of the pipeline thread's heap for every run that starts a replay
 * server. A member of an ASCII file is kept as its byte span in the file instead and read on request (one
 * positional read of a few KB per history request); anything else stays text.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** A member's bytes in a file on disk. */
export interface FileSpan {
  path: string;
  offset: number;
  length: number;
}

/** A history member's JSON text, or where to read it. */
export type MemberText = string | FileSpan;

/** The text of a member (read from disk for a span); undefined for none or an unreadable file. */
export function memberText(member: MemberText | undefined): string | undefined {
  if (member === undefined || typeof member === 'string') return member;
  let fd: number | null = null;
  try {
    fd = openSync(member.path, 'r');
    const bytes = Buffer.allocUnsafe(member.length);
    const read = readSync(fd, bytes, 0, member.length, member.offset);
    return bytes.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Members of a file's top-level object as spans when the text is ASCII (character index = byte offset,
 * after a UTF-8 byte-order mark of 3 bytes that `text` no longer starts with), else as their texts.
 */
export function membersOf(
  path: string,
  text: string,
  spans: ReadonlyMap<string, [start: number, end: number]>,
  bomBytes: number,
): Map<string, MemberText> {
  const ascii = Buffer.byteLength(text, 'utf8') === text.length;
  const out = new Map<string, MemberText>();
  for (const [key, [start, end]] of spans) {
    out.set(key, ascii ? { path, offset: start + bomBytes, length: end - start } : text.slice(start, end));
  }
  return out;
}
