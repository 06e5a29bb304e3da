import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseBoundedJson } from '../shared/boundedJson';
import type { HistoryEntry } from '../shared/webviewProtocol';

/** One past session, from its transcript file. */
export interface SessionSummary {
  /** The session id (the transcript's file name without `.jsonl`). */
  readonly id: string;
  /** The main agent's first prompt, cut at {@link TITLE_MAX_CHARS}; undefined when none could be read. */
  readonly title: string | undefined;
  /** Last write, epoch ms. */
  readonly updatedAt: number;
  readonly sizeBytes: number;
}

/** How much of a transcript is read to find its title: the first prompt is near the top. */
export const TITLE_SCAN_BYTES = 64 * 1024;
/** Longest title before it is cut with `…`. */
export const TITLE_MAX_CHARS = 80;

/**
 * The sessions whose transcripts are in `transcriptDir`, newest first, at most `limit`.
 * A missing folder is an empty list; a file that vanishes or cannot be read is left out or
 * listed without a title, never an error.
 */
export function listSessions(transcriptDir: string, limit = 100): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(transcriptDir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const sessions: SessionSummary[] = [];
  for (const name of names) {
    const file = path.join(transcriptDir, name);
    try {
      const stat = statSync(file);
      if (!stat.isFile()) continue;
      sessions.push({ id: name.slice(0, -'.jsonl'.length), title: transcriptTitle(file), updatedAt: stat.mtimeMs, sizeBytes: stat.size });
    } catch {
      // Deleted between the listing and the stat: it is no longer a past session.
    }
  }
  return sessions.sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
}

/**
 * The title of a transcript: the main agent's first user prompt that is not an injected
 * `<system-reminder>`, read line by line from the first {@link TITLE_SCAN_BYTES} (a line cut
 * there, or a damaged one, is skipped). Undefined when there is none.
 */
export function transcriptTitle(file: string): string | undefined {
  let head: string;
  try {
    head = readHead(file, TITLE_SCAN_BYTES);
  } catch {
    return undefined;
  }
  for (const line of head.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parseBoundedJson(line);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) continue;
    const prompt = promptOf(parsed.value as TitleEntry);
    if (prompt === undefined || prompt.startsWith('<system-reminder>')) continue;
    return prompt.length > TITLE_MAX_CHARS ? `${prompt.slice(0, TITLE_MAX_CHARS)}…` : prompt;
  }
  return undefined;
}

interface TitleEntry {
  readonly type?: unknown;
  readonly agent_id?: unknown;
  readonly isSidechain?: unknown;
  readonly isMeta?: unknown;
  readonly content?: unknown;
  readonly message?: { readonly content?: unknown };
}

/**
 * The text the person typed, if `entry` is one of the main agent's user prompts: Claude Code's
 * format (`message.content` a string or text blocks; tool results are not prompts) or the
 * line format Hookwise wrote before it (`content`).
 */
function promptOf(entry: TitleEntry): string | undefined {
  if (entry.type !== 'user' || entry.isSidechain === true || entry.isMeta === true) return undefined;
  if (entry.agent_id !== undefined && entry.agent_id !== 'main') return undefined;
  const message = entry.message;
  if (message === null || typeof message !== 'object') return typeof entry.content === 'string' ? entry.content : undefined;
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return undefined;
  const texts = message.content.flatMap((b: unknown) =>
    b !== null && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string'
      ? [(b as { text: string }).text]
      : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** The first `bytes` of a file (or all of a smaller one), without reading the rest. */
function readHead(file: string, bytes: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

/** One past session as the chat's History list shows it. */
export function toHistoryEntry(s: SessionSummary): HistoryEntry {
  return { id: s.id, title: s.title ?? '(no prompt)', updatedAt: s.updatedAt, detail: `${Math.max(1, Math.round(s.sizeBytes / 1024))} KB` };
}
