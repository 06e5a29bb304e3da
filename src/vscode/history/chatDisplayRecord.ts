import { closeSync, fstatSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { parseBoundedJson } from '../../shared/boundedJson';
import { describeThrown } from '../../shared/describeThrown';
import { chatEventSchema, type ChatEvent } from '../../shared/webviewProtocol';

/**
 * The chat's display record: the events the chat showed for one session (hook verdicts,
 * subagent work, inline diffs, attachment chips, notices), kept in a file beside the
 * session's transcript. The transcript holds what the model saw; this holds what the person
 * saw, so a resumed or reloaded chat looks as it did live. It is a cache, never the truth:
 * the transcript wins, and a missing or unreadable record only costs the display.
 */

/** Format of the record's file; a record of another version is ignored (read as transcript-only). */
export const DISPLAY_RECORD_VERSION = 1;

/** Largest record written or read (serialized bytes): the oldest turns are dropped to stay under it. */
export const MAX_DISPLAY_RECORD_BYTES = 4 * 1024 * 1024;

const recordSchema = z.object({
  version: z.literal(DISPLAY_RECORD_VERSION),
  sessionId: z.string(),
  /** How many conversation messages the session had when the record was written. */
  transcriptMessages: z.number().int().nonnegative(),
  /** True when the oldest turns were left out to stay under the size limit. */
  truncated: z.boolean().optional(),
  events: z.array(chatEventSchema),
});

/** One session's display record, as written and as read back (validated). */
export type ChatDisplayRecord = z.infer<typeof recordSchema>;

/** What reading a record gave: the record, nothing (no file), or why it cannot be used. */
export type DisplayRecordRead =
  { readonly kind: 'ok'; readonly record: ChatDisplayRecord } | { readonly kind: 'missing' } | { readonly kind: 'invalid'; readonly reason: string };

/** The record's file for the transcript `transcriptPath` (`<id>.jsonl` → `<id>.chat.json`, not a transcript to History). */
export function displayRecordPath(transcriptPath: string): string {
  return `${transcriptPath.replace(/\.jsonl$/, '')}.chat.json`;
}

/**
 * Writes `record` to `file` atomically (a reader never sees half a file). When it is larger
 * than `maxBytes`, whole turns are dropped from the front (each kept part starts at a prompt)
 * and the record says so. Throws on a file system error; the caller logs it.
 */
export function writeDisplayRecord(file: string, record: Omit<ChatDisplayRecord, 'version'>, maxBytes = MAX_DISPLAY_RECORD_BYTES): void {
  let events = record.events;
  let truncated = record.truncated ?? false;
  let text = serialize({ ...record, events, truncated });
  while (Buffer.byteLength(text) > maxBytes && events.length > 0) {
    events = dropFirstTurn(events);
    truncated = true;
    text = serialize({ ...record, events, truncated });
  }
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Reads and validates the record of `sessionId` from `file`. A file that is too large, not
 * JSON, of another version or session, or whose events do not fit the chat's protocol is
 * `invalid` with a reason that reads after "the record" ("is not valid JSON (…)"); a missing file is `missing`.
 */
export function readDisplayRecord(file: string, sessionId: string, maxBytes = MAX_DISPLAY_RECORD_BYTES): DisplayRecordRead {
  let text: string;
  try {
    const read = readCapped(file, maxBytes);
    if (read === undefined) return { kind: 'missing' };
    if (read === 'tooLarge') return { kind: 'invalid', reason: `is larger than ${maxBytes} bytes` };
    text = read;
  } catch (error) {
    return { kind: 'invalid', reason: `cannot be read (${describeThrown(error)})` };
  }
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return { kind: 'invalid', reason: `is not valid JSON (${parsed.error})` };
  const checked = recordSchema.safeParse(parsed.value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { kind: 'invalid', reason: `is not a display record (${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'unknown shape'})` };
  }
  if (checked.data.sessionId !== sessionId) return { kind: 'invalid', reason: `belongs to another session (${checked.data.sessionId})` };
  return { kind: 'ok', record: checked.data };
}

function serialize(record: Omit<ChatDisplayRecord, 'version'>): string {
  return JSON.stringify({ version: DISPLAY_RECORD_VERSION, ...record });
}

/** `events` without its first turn (up to the second prompt); with no second prompt, without its first event. */
function dropFirstTurn(events: readonly ChatEvent[]): ChatEvent[] {
  const next = events.findIndex((e, i) => i > 0 && e.type === 'userPrompt');
  return events.slice(next > 0 ? next : 1);
}

/** The file's text; undefined when it does not exist, `tooLarge` past `maxBytes` (not read then). */
function readCapped(file: string, maxBytes: number): string | undefined | 'tooLarge' {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) return 'tooLarge';
    const buffer = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const n = readSync(fd, buffer, offset, size - offset, offset);
      if (n === 0) break;
      offset += n;
    }
    return buffer.subarray(0, offset).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
