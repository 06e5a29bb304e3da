import { randomUUID } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import { describeSource } from '../configFiles/hookSource';
import type { ModelMessage } from '../model/modelClient';
import { parseBoundedJson } from '../shared/boundedJson';

/** What every entry of one transcript file shares (Claude Code's envelope). */
export interface TranscriptScope {
  readonly sessionId: string;
  readonly cwd: string;
  /** Set for a subagent's own file: its entries are a sidechain, as in Claude Code. */
  readonly agentId?: string | undefined;
}

/** The `version` entries carry: Hookwise's, marked so Claude-format readers can tell. */
export const TRANSCRIPT_VERSION = 'hookwise-0.1.0';

/** Entry types of Claude Code's own transcripts; anything else Hookwise writes goes under `type: "hookwise"`. */
const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'summary']);

/** Largest `toolUseResult` kept in a transcript entry (serialized characters); a larger one is left out. */
export const MAX_TOOL_USE_RESULT_CHARS = 1024 * 1024;

/** How much of an existing file's end is read to chain new entries to its last one. */
const TAIL_SCAN_BYTES = 64 * 1024;

/**
 * A session's (or a subagent's) transcript at `transcript_path`, in Claude Code's JSONL
 * format (docs/hooks.md, "Transcript"): one entry per line with `type`, `message` {role,
 * content blocks incl. tool_use / tool_result}, `uuid`, `parentUuid`, `sessionId`,
 * `timestamp`, `cwd`, `version`, `isSidechain`. Hookwise's own records (hook runs,
 * compaction, session start/end…) are `type: "hookwise"` entries with a `subtype`, which
 * Claude-format readers skip. Each line is written with one synchronous `write` the moment
 * it exists, so a hook reading the file sees the conversation so far, and a process killed at
 * any moment loses no complete line.
 */
export class TranscriptWriter {
  private fd: number | undefined;
  private lastUuid: string | null;
  private readonly scope: TranscriptScope;
  /** Structured results of tool calls whose result message is not written yet, by tool_use id. */
  private readonly pendingResults = new Map<string, string>();

  /** `scope` defaults to the file's name as the session id and the process's cwd. */
  constructor(
    readonly filePath: string,
    scope?: TranscriptScope,
  ) {
    this.scope = scope ?? { sessionId: path.basename(filePath, '.jsonl'), cwd: process.cwd() };
    mkdirSync(path.dirname(filePath), { recursive: true });
    this.fd = openSync(filePath, 'a');
    // A process killed mid-write leaves a last line without its newline; end it, or the
    // first line written now (on resume) would be glued to it and lost with it.
    if (!endsWithNewline(filePath)) writeSync(this.fd, '\n');
    this.lastUuid = lastMessageUuid(filePath);
  }

  /**
   * Appends one Hookwise record (`type: "hookwise"`, `subtype` = the given type), or a
   * Claude-typed entry as is; after `close` it is a no-op (late events of a cancelled run).
   */
  write(entry: TranscriptEntry): void {
    if (CLAUDE_TYPES.has(entry.type)) {
      this.append(entry);
      return;
    }
    const { type, ...rest } = entry;
    this.append({ type: 'hookwise', subtype: type, ...rest });
  }

  /**
   * Keeps a tool call's structured result (its PostToolUse `tool_response`) for the entry of
   * its result message, as Claude Code's `toolUseResult`. Not kept when it cannot be
   * serialized or is larger than {@link MAX_TOOL_USE_RESULT_CHARS}.
   */
  noteToolResult(toolUseId: string, data: unknown): void {
    if (this.fd === undefined || data === undefined) return;
    let json: string | undefined;
    try {
      json = JSON.stringify(data);
    } catch {
      return;
    }
    if (json !== undefined && json.length <= MAX_TOOL_USE_RESULT_CHARS) this.pendingResults.set(toolUseId, json);
  }

  /** Writes a conversation message as Claude Code does (a tool result is a user entry with a tool_result block). */
  writeMessage(message: ModelMessage, _agentId?: string): void {
    switch (message.role) {
      case 'user':
        this.append({
          type: 'user',
          // Injected hook context is not something the person typed (Claude Code marks it isMeta).
          ...(message.content.startsWith('<system-reminder>') ? { isMeta: true } : {}),
          message: { role: 'user', content: message.content },
        });
        break;
      case 'system':
        this.append({ type: 'system', subtype: 'hookwise_system_message', content: message.content, level: 'info' });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        const content: Record<string, unknown>[] = message.content ? [{ type: 'text', text: message.content }] : [];
        // Arguments that do not survive a JSON round trip unchanged are kept as written, so a resume sends the model what it sent.
        const rawArguments: Record<string, string> = {};
        for (const call of calls) {
          const input = parseOrRaw(call.argumentsText);
          content.push({ type: 'tool_use', id: call.id, name: call.name, input });
          if (typeof input === 'string' || JSON.stringify(input) !== call.argumentsText) rawArguments[call.id] = call.argumentsText;
        }
        this.append({
          type: 'assistant',
          message: { id: `msg_${randomUUID()}`, type: 'message', role: 'assistant', content, stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn' },
          ...(Object.keys(rawArguments).length > 0 ? { hookwise: { argumentsText: rawArguments } } : {}),
        });
        break;
      }
      case 'tool': {
        const result = this.pendingResults.get(message.toolCallId);
        this.pendingResults.delete(message.toolCallId);
        this.append({
          type: 'user',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, ...(message.isError ? { is_error: true } : {}) }],
          },
          ...(result !== undefined ? { toolUseResult: JSON.parse(result) as unknown } : {}),
        });
        break;
      }
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

  /** One line: Claude's envelope (threaded by parentUuid), then the entry. */
  private append(entry: TranscriptEntry): void {
    if (this.fd === undefined) return;
    const uuid = randomUUID();
    const line = {
      parentUuid: this.lastUuid,
      isSidechain: this.scope.agentId !== undefined,
      userType: 'external',
      cwd: this.scope.cwd,
      sessionId: this.scope.sessionId,
      version: TRANSCRIPT_VERSION,
      ...(this.scope.agentId !== undefined ? { agentId: this.scope.agentId } : {}),
      ...entry,
      uuid,
      timestamp: new Date().toISOString(),
    };
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    // Hookwise records are not part of the conversation thread.
    if (entry.type !== 'hookwise') this.lastUuid = uuid;
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

/** The uuid of the last conversation entry of an existing file (to thread new entries on), or null. */
function lastMessageUuid(filePath: string): string | null {
  const fd = openSync(filePath, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_SCAN_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const parsed = parseBoundedJson(lines[i] ?? '');
      if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object') continue;
      const entry = parsed.value as { type?: unknown; uuid?: unknown };
      if (entry.type !== 'hookwise' && typeof entry.uuid === 'string') return entry.uuid;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function parseOrRaw(text: string): unknown {
  // Too deep to write back as JSON (the line would overflow the stack): keep the raw text.
  const parsed = parseBoundedJson(text);
  return parsed.ok ? parsed.value : text;
}
