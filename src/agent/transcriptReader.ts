import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ModelMessage, ModelToolCall } from '../model/modelClient';
import { compactionNote } from './compactionNote';
import { lazySchema } from '../shared/lazySchema';

/** A transcript read back for resuming. */
export interface LoadedTranscript {
  readonly sessionId?: string;
  readonly cwd?: string;
  /** The main agent's conversation, as the model saw it. */
  readonly messages: ModelMessage[];
  /** Lines that could not be read (e.g. a truncated last line after a crash), 1-based. */
  readonly skipped: readonly { readonly line: number; readonly reason: string }[];
}

const lineSchema = lazySchema(() => z.looseObject({ type: z.string(), agent_id: z.string().optional() }));
const legacyToolCallSchema = lazySchema(() => z.object({ id: z.string(), name: z.string(), arguments: z.string() }));
const messageSchema = lazySchema(() => z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]) }));

type Entry = z.infer<typeof lineSchema> & Record<string, unknown>;

/**
 * Reads a transcript back into the main agent's conversation: Claude Code's format (entries
 * with a `message`, Hookwise records under `type: "hookwise"`), and the line format Hookwise
 * wrote before it (`agent_id` + `content` per line), even mixed in one file (an old session
 * resumed and continued). A truncated or corrupt line is skipped and reported (never fatal);
 * sidechain entries, subagents' lines and hook records are ignored.
 */
export function readTranscript(filePath: string, mainAgentId = 'main'): LoadedTranscript {
  const text = readFileSync(filePath, 'utf8');
  const messages: ModelMessage[] = [];
  const skipped: { line: number; reason: string }[] = [];
  let sessionId: string | undefined;
  let cwd: string | undefined;
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    if (raw.trim() === '') return;
    let entry: Entry;
    try {
      entry = lineSchema.parse(JSON.parse(raw));
    } catch {
      const last = index >= lines.length - 2;
      skipped.push({ line: index + 1, reason: last ? 'truncated last line (the process was probably killed while writing it)' : 'not a JSON object' });
      return;
    }
    const kind = entry.type === 'hookwise' && typeof entry.subtype === 'string' ? entry.subtype : entry.type;
    if (kind === 'session') {
      sessionId = str(entry.session_id) ?? str(entry.sessionId) ?? sessionId;
      cwd = str(entry.cwd) ?? cwd;
      return;
    }
    if (entry.isSidechain === true || (entry.agent_id ?? mainAgentId) !== mainAgentId) return;
    if (kind === 'compaction' && typeof entry.summary === 'string') {
      // Everything before the compaction is replaced by its summary, as the model saw it.
      const kept = typeof entry.kept === 'number' ? entry.kept : 0;
      const tail = kept > 0 ? messages.slice(-kept) : [];
      messages.length = 0;
      messages.push({ role: 'user', content: compactionNote(entry.summary) }, ...tail);
      return;
    }
    // Restore Checkpoint cut the conversation back to its first `kept` messages.
    if (kind === 'rewind' && typeof entry.kept === 'number') {
      messages.length = Math.min(messages.length, Math.max(0, entry.kept));
      return;
    }
    if (entry.type === 'hookwise') return;
    const message = messageSchema.safeParse(entry.message);
    if (message.success) messages.push(...fromClaudeEntry(entry, message.data));
    else if (entry.type === 'system' && entry.subtype === 'hookwise_system_message' && typeof entry.content === 'string')
      messages.push({ role: 'system', content: entry.content });
    else messages.push(...fromLegacyLine(entry));
  });
  return { messages: dropDanglingToolCalls(messages), skipped, ...(sessionId ? { sessionId } : {}), ...(cwd ? { cwd } : {}) };
}

/** One Claude-format user or assistant entry as the messages the model saw. */
function fromClaudeEntry(entry: Entry, message: z.infer<typeof messageSchema>): ModelMessage[] {
  const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  if (entry.type === 'assistant') {
    const raw = (entry.hookwise as { argumentsText?: Record<string, unknown> } | undefined)?.argumentsText ?? {};
    const text = blocks.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('');
    const toolCalls: ModelToolCall[] = blocks.flatMap((b) => {
      if (b.type !== 'tool_use' || typeof b.id !== 'string' || typeof b.name !== 'string') return [];
      const written = raw[b.id];
      return [{ id: b.id, name: b.name, argumentsText: typeof written === 'string' ? written : JSON.stringify(b.input ?? {}) }];
    });
    return [toolCalls.length > 0 ? { role: 'assistant', content: text, toolCalls } : { role: 'assistant', content: text }];
  }
  if (entry.type !== 'user') return [];
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const out: ModelMessage[] = [];
  const texts: string[] = [];
  for (const b of blocks) {
    if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
      out.push({ role: 'tool', toolCallId: b.tool_use_id, content: resultText(b.content), ...(b.is_error === true ? { isError: true } : {}) });
    } else if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
  }
  if (texts.length > 0) out.push({ role: 'user', content: texts.join('\n') });
  return out;
}

/** A tool_result's content: a string, or text blocks. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((b: unknown) => (b !== null && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? [(b as { text: string }).text] : []))
    .join('\n');
}

/** A line of the format Hookwise wrote before Claude Code's (kept so old sessions still resume). */
function fromLegacyLine(entry: Entry): ModelMessage[] {
  const content = typeof entry.content === 'string' ? entry.content : '';
  if (entry.type === 'user' || entry.type === 'system') return [{ role: entry.type, content }];
  if (entry.type === 'assistant') {
    const calls = z.array(legacyToolCallSchema).safeParse(entry.tool_calls ?? []);
    const toolCalls = calls.success ? calls.data.map((c) => ({ id: c.id, name: c.name, argumentsText: c.arguments })) : [];
    return [toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content }];
  }
  if (entry.type === 'tool_result' && typeof entry.tool_use_id === 'string')
    return [{ role: 'tool', toolCallId: entry.tool_use_id, content, ...(entry.is_error === true ? { isError: true } : {}) }];
  return [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A crash between a tool call and its result leaves a call no model accepts; answer it as interrupted. */
function dropDanglingToolCalls(messages: ModelMessage[]): ModelMessage[] {
  const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  const out: ModelMessage[] = [];
  for (const m of messages) {
    out.push(m);
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) {
        if (!answered.has(call.id))
          out.push({ role: 'tool', toolCallId: call.id, content: 'Not run: the session ended before this tool call finished.', isError: true });
      }
    }
  }
  return out;
}
