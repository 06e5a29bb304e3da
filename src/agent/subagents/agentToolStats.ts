import type { ModelMessage } from '../../model/modelClient';
import { parseBoundedJson } from '../../shared/boundedJson';

/** Claude Code's `toolStats` of an Agent tool_response: what the subagent's tool calls did, by kind. */
export interface ToolStats {
  readCount: number;
  searchCount: number;
  bashCount: number;
  editFileCount: number;
  linesAdded: number;
  linesRemoved: number;
  otherToolCount: number;
}

/** Tools Claude Code leaves out of the counts: the subagent calls themselves (their own counts are added instead). */
const UNCOUNTED = new Set(['Agent', 'Task']);

/** Lines of a string as Claude Code counts them for toolStats: none when empty, else one more than its newlines. */
function lineCount(value: unknown): number {
  return typeof value === 'string' && value.length > 0 ? value.split('\n').length : 0;
}

/**
 * Counts one subagent's tool calls as Claude Code does for the Agent tool_response: its
 * `toolStats` (Read → read, Grep/Glob → search, Bash → bash, Edit/Write → edited files with
 * their added/removed lines, the rest → other, Agent calls not counted but their own
 * toolStats added), `totalToolUseCount` (every tool call, Agent ones included) and
 * `toolsUsed` (each tool name once, in first-use order). Fed every message the subagent's
 * conversation appends, so a compaction of that conversation loses nothing.
 */
export class AgentToolTally {
  private readonly stats: ToolStats = { readCount: 0, searchCount: 0, bashCount: 0, editFileCount: 0, linesAdded: 0, linesRemoved: 0, otherToolCount: 0 };
  private readonly names: string[] = [];
  private calls = 0;

  /** Counts the tool calls of an assistant message (other messages are ignored). */
  note(message: ModelMessage): void {
    if (message.role !== 'assistant') return;
    for (const call of message.toolCalls ?? []) {
      this.calls++;
      if (!this.names.includes(call.name)) this.names.push(call.name);
      this.count(call.name, call.argumentsText);
    }
  }

  /** Adds a nested subagent's own counts (what it reported in its tool_response). */
  addNested(nested: ToolStats): void {
    for (const key of Object.keys(this.stats) as (keyof ToolStats)[]) this.stats[key] += nested[key];
  }

  get toolStats(): ToolStats {
    return { ...this.stats };
  }
  get totalToolUseCount(): number {
    return this.calls;
  }
  get toolsUsed(): string[] {
    return [...this.names];
  }

  private count(name: string, argumentsText: string): void {
    if (UNCOUNTED.has(name)) return;
    if (name === 'Read') this.stats.readCount++;
    else if (name === 'Grep' || name === 'Glob') this.stats.searchCount++;
    else if (name === 'Bash') this.stats.bashCount++;
    else if (name === 'Edit' || name === 'Write') {
      const parsed = parseBoundedJson(argumentsText === '' ? '{}' : argumentsText);
      const input = parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : {};
      this.stats.editFileCount++;
      this.stats.linesAdded += lineCount(name === 'Write' ? input.content : input.new_string);
      this.stats.linesRemoved += name === 'Write' ? 0 : lineCount(input.old_string);
    } else this.stats.otherToolCount++;
  }
}
