import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import { describeSource } from '../hooks/hookSource';
import type { ModelMessage } from '../model/modelClient';
import { parseBoundedJson } from '../shared/boundedJson';
import { compactionNote } from './compactionNote';

/**
 * A session's JSONL transcript at `transcript_path`: one line per user
 * message, assistant message, tool call, tool result and hook decision. Each line is
 * written with one synchronous `write` the moment it exists, so a hook reading the file
 * sees the conversation so far, and a process killed at any moment loses no complete line.
 */
export class TranscriptWriter {
  private fd: number | undefined;

  constructor(readonly filePath: string) {
    mkdirSync(path.dirname(filePath), { recursive: true });
    this.fd = openSync(filePath, 'a');
    // A process killed mid-write leaves a last line without its newline; end it, or the
    // first line written now (on resume) would be glued to it and lost with it.
    if (!endsWithNewline(filePath)) writeSync(this.fd, '\n');
  }

  /** Appends one entry; after `close` it is a no-op (late events of a cancelled run). */
  write(entry: TranscriptEntry): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify({ ...entry, timestamp: new Date().toISOString() })}\n`);
  }

  /** Writes a conversation message, plus one `tool_use` line per tool call it makes. */
  writeMessage(message: ModelMessage, agentId: string): void {
    switch (message.role) {
      case 'user':
      case 'system':
        this.write({ type: message.role, agent_id: agentId, content: message.content });
        break;
      case 'assistant':
        this.write({
          type: 'assistant',
          agent_id: agentId,
          content: message.content,
          ...(message.toolCalls?.length ? { tool_calls: message.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsText })) } : {}),
        });
        for (const call of message.toolCalls ?? [])
          this.write({ type: 'tool_use', agent_id: agentId, id: call.id, name: call.name, input: parseOrRaw(call.argumentsText) });
        break;
      case 'tool':
        this.write({
          type: 'tool_result',
          agent_id: agentId,
          tool_use_id: message.toolCallId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        });
        break;
    }
  }

  /** Writes a finished hook execution (decision, who, how long). */
  writeHookRun(record: HookRunRecord): void {
    this.write({
      type: 'hook',
      agent_id: record.agentId,
      event: record.event,
      hook: record.hookLabel,
      source: describeSource(record.source),
      status: record.status,
      ...(record.outcome?.decision ? { decision: record.outcome.decision } : {}),
      ...(record.outcome?.reason ? { reason: record.outcome.reason } : {}),
      ...(record.permission ? { permission: record.permission } : {}),
      ...(record.error ? { error: record.error } : {}),
      duration_ms: record.durationMs ?? 0,
    });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** One transcript line (before the timestamp is added). */
export type TranscriptEntry = { readonly type: string } & Readonly<Record<string, unknown>>;

/** True for an empty file or one whose last byte is `\n`. */
function endsWithNewline(filePath: string): boolean {
  const fd = openSync(filePath, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

function parseOrRaw(text: string): unknown {
  // Too deep to write back as JSON (the line would overflow the stack): keep the raw text.
  const parsed = parseBoundedJson(text);
  return parsed.ok ? parsed.value : text;
}

const lineSchema = z.looseObject({ type: z.string(), agent_id: z.string().optional() });
const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

/** A transcript read back for resuming. */
export interface LoadedTranscript {
  readonly sessionId?: string;
  readonly cwd?: string;
  /** The main agent's conversation, as the model saw it. */
  readonly messages: ModelMessage[];
  /** Lines that could not be read (e.g. a truncated last line after a crash), 1-based. */
  readonly skipped: readonly { readonly line: number; readonly reason: string }[];
}

/**
 * Reads a transcript back into the main agent's conversation. A truncated or corrupt line
 * is skipped and reported (never fatal); lines of subagents and hook records are ignored.
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
    let entry: z.infer<typeof lineSchema> & Record<string, unknown>;
    try {
      entry = lineSchema.parse(JSON.parse(raw));
    } catch {
      const last = index >= lines.length - 2;
      skipped.push({ line: index + 1, reason: last ? 'truncated last line (the process was probably killed while writing it)' : 'not a JSON object' });
      return;
    }
    if (entry.type === 'session') {
      sessionId = typeof entry.session_id === 'string' ? entry.session_id : sessionId;
      cwd = typeof entry.cwd === 'string' ? entry.cwd : cwd;
      return;
    }
    if ((entry.agent_id ?? mainAgentId) !== mainAgentId) return;
    if (entry.type === 'compaction' && typeof entry.summary === 'string') {
      // Everything before the compaction is replaced by its summary, as the model saw it.
      const kept = typeof entry.kept === 'number' ? entry.kept : 0;
      const tail = kept > 0 ? messages.slice(-kept) : [];
      messages.length = 0;
      messages.push({ role: 'user', content: compactionNote(entry.summary) }, ...tail);
      return;
    }
    // Restore Checkpoint cut the conversation back to its first `kept` messages.
    if (entry.type === 'rewind' && typeof entry.kept === 'number') messages.length = Math.min(messages.length, Math.max(0, entry.kept));
    const content = typeof entry.content === 'string' ? entry.content : '';
    if (entry.type === 'user' || entry.type === 'system') messages.push({ role: entry.type, content });
    else if (entry.type === 'assistant') {
      const calls = z.array(toolCallSchema).safeParse(entry.tool_calls ?? []);
      const toolCalls = calls.success ? calls.data.map((c) => ({ id: c.id, name: c.name, argumentsText: c.arguments })) : [];
      messages.push(toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content });
    } else if (entry.type === 'tool_result' && typeof entry.tool_use_id === 'string') {
      messages.push({ role: 'tool', toolCallId: entry.tool_use_id, content, ...(entry.is_error === true ? { isError: true } : {}) });
    }
  });
  return { messages: dropDanglingToolCalls(messages), skipped, ...(sessionId ? { sessionId } : {}), ...(cwd ? { cwd } : {}) };
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
