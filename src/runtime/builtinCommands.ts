import { describeSource } from '../configFiles/hookSource';
import type { HookwiseRuntime } from './hookwiseRuntime';
import type { SessionManager } from './sessionManager';

/** A built-in slash command, as the chat's `/` completion lists it. */
export interface BuiltinCommandInfo {
  readonly name: string;
  readonly description: string;
  readonly argumentHint?: string;
}

/** Claude Code's built-ins that Hookwise has; they are handled before custom commands of the same name. */
export const BUILTIN_COMMANDS: readonly BuiltinCommandInfo[] = Object.freeze([
  { name: 'clear', description: 'Clear the conversation and start a new session' },
  { name: 'compact', description: 'Summarize the conversation so far to free context', argumentHint: '[instructions]' },
  { name: 'hooks', description: 'List the hooks in effect, in run order, with their sources' },
  { name: 'mcp', description: 'Show the MCP servers and their state' },
  { name: 'memory', description: 'List the memory files (CLAUDE.md, rules) in use' },
  { name: 'model', description: 'Show the model in use' },
  { name: 'resume', description: 'Resume a past session (no id: list them)', argumentHint: '[session id]' },
]);

/** A prompt that names a built-in: `/compact keep the API notes` → `{ name: 'compact', args: 'keep the API notes' }`. */
export interface BuiltinInvocation {
  readonly name: string;
  readonly args: string;
}

/** The built-in a prompt invokes, or undefined (not a `/name`, or not a built-in: custom commands and the model get it). */
export function parseBuiltinCommand(prompt: string): BuiltinInvocation | undefined {
  const match = /^\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!match?.[1] || !BUILTIN_COMMANDS.some((c) => c.name === match[1])) return undefined;
  return { name: match[1], args: (match[2] ?? '').trim() };
}

/** What a built-in did: text for the user (the chat shows it as a notice, the CLI prints it). */
export interface BuiltinResult {
  readonly text: string;
  readonly ok: boolean;
}

/** Most sessions `/resume` lists. */
const RESUME_LIST_MAX = 20;

/**
 * Runs a built-in against the session manager and runtime the CLI and the chat share. Never
 * runs the model or a UserPromptSubmit hook (Claude Code's built-ins do not either); the
 * session events they cause do fire (SessionEnd/SessionStart for /clear and /resume, PreCompact
 * for /compact). Never throws for bad arguments: the result says what is wrong.
 */
export async function runBuiltinCommand(
  invocation: BuiltinInvocation,
  host: { readonly sessions: SessionManager; readonly runtime: HookwiseRuntime },
  signal: AbortSignal,
): Promise<BuiltinResult> {
  const { sessions, runtime } = host;
  switch (invocation.name) {
    case 'clear':
      await sessions.clear();
      return { ok: true, text: 'Conversation cleared: the next prompt starts a new session.' };
    case 'compact': {
      const session = await sessions.ensureStarted(signal);
      const result = await session.compact('manual', signal, invocation.args || undefined);
      return result.status === 'compacted'
        ? { ok: true, text: `Compacted: ${result.summarized} messages summarized, ${result.kept} kept.` }
        : { ok: false, text: `Not compacted: ${result.reason}.` };
    }
    case 'hooks':
      return { ok: true, text: hooksReport(runtime) };
    case 'mcp': {
      const statuses = runtime.mcp.statuses();
      if (statuses.length === 0) return { ok: true, text: 'No MCP servers are configured (.mcp.json, ~/.claude.json, --mcp-config).' };
      const lines = statuses.map((s) => `${s.name} (${s.transport}, ${s.displayFile}): ${s.state}, ${s.toolCount} tool(s)${s.error ? ` — ${s.error}` : ''}`);
      return { ok: true, text: `MCP servers:\n${lines.join('\n')}` };
    }
    case 'memory': {
      const session = await sessions.ensureStarted(signal);
      const files = session.memory?.files ?? [];
      if (files.length === 0)
        return { ok: true, text: 'No memory files are in use (CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, ~/.claude/CLAUDE.md, AGENTS.md).' };
      const lines = files.map((f) => `${f.path} (${f.memoryType}${f.parentPath ? `, imported by ${f.parentPath}` : ''}${f.truncated ? ', truncated' : ''})`);
      return { ok: true, text: `Memory files in use:\n${lines.join('\n')}` };
    }
    case 'model':
      if (invocation.args !== '')
        return { ok: false, text: `The model is chosen by the hookwise.model.* settings (or --model); it stays ${runtime.model.label}.` };
      return { ok: true, text: `Model: ${runtime.model.label}` };
    case 'resume': {
      if (invocation.args === '') {
        const list = sessions.list().slice(0, RESUME_LIST_MAX);
        if (list.length === 0) return { ok: true, text: 'There is no past session to resume.' };
        const lines = list.map((s) => `${s.id}  ${new Date(s.updatedAt).toISOString()}  ${s.title ?? '(no prompt)'}`);
        return { ok: true, text: `Past sessions (newest first); resume one with /resume <id>:\n${lines.join('\n')}` };
      }
      const resumed = await sessions.resume(invocation.args);
      if (!resumed.ok) return { ok: false, text: `Cannot resume: ${resumed.error}` };
      return { ok: true, text: `Resumed session ${invocation.args} (${resumed.messages.length} messages).` };
    }
    default:
      return { ok: false, text: `/${invocation.name} is not a built-in command.` };
  }
}

/** `/hooks`: each registered hook in run order per event, with its source; a skill's hooks say they wait for the skill. */
function hooksReport(runtime: HookwiseRuntime): string {
  const all = runtime.registry.list();
  if (all.length === 0) return 'No hooks are in effect.';
  const byEvent = new Map<string, string[]>();
  for (const event of new Set(all.map((r) => r.event))) {
    const lines = runtime.registry.select(event).map((r) => {
      const matcher = r.matcher.description === '*' || r.matcher.description === '' ? '' : ` [${r.matcher.description}]`;
      const scope = r.agentType !== undefined ? ` (agent ${r.agentType})` : r.skill !== undefined ? ` (skill ${r.skill}, once it is loaded)` : '';
      return `  ${r.action.label}${matcher}${scope} — ${describeSource(r.source)}`;
    });
    byEvent.set(event, lines);
  }
  return [...byEvent.entries()].map(([event, lines]) => `${event}:\n${lines.join('\n')}`).join('\n');
}
