import { randomUUID } from 'node:crypto';
import { forEvent, type HookEnvelope } from '../../hooks/hookContext';
import type { AgentRef, HookEventResult } from '../../hooks/hookRunTypes';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { ContextBuffer } from '../contextBuffer';
import { HookInputs } from '../hookInputs';
import { PermissionGate } from '../permissionGate';
import type { RunContext } from '../runContext';
import { runToolCall } from '../toolCallRunner';
import type { AnyAgentTool } from '../tools/tool';
import { resolveWorkspacePath } from '../tools/workspacePaths';
import { thrownMessage } from '../../shared/describeThrown';
import { expandCommand } from './expandCommand';
import { parseSlashInvocation, type SlashCommandSet } from './slashCommands';

/**
 * A prompt that names a custom slash command (`/review 42`) becomes the command's prompt, as in
 * Claude Code: its !`commands` run first through the Bash tool — PreToolUse hooks, permission
 * rules and the approval popup, like any Bash call — its `@files` are attached as the Read tool
 * reads (Read deny and ask rules apply; a file outside the workspace, symlinks followed, is
 * attached only when a person approves it, and where no one can be asked it is refused), then
 * UserPromptExpansion hooks see the expansion and may block it. A prompt that names no known
 * command is left as typed.
 */

/** What expanding one prompt gave. */
export type PromptExpansionResult =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'expanded'; readonly prompt: string; readonly command: string; readonly files: readonly string[] }
  /** `byHook`: a UserPromptExpansion hook refused it (else the command itself could not be expanded). */
  | { readonly kind: 'refused'; readonly reason: string; readonly byHook?: true };

/** The session's side of an expansion. */
export interface PromptExpansionDeps {
  readonly ctx: RunContext;
  readonly agent: AgentRef;
  readonly envelope: HookEnvelope;
  readonly tools: readonly AnyAgentTool[];
  readonly commands: () => Promise<SlashCommandSet>;
  /** Runs one of the session's own events (an ask in it goes through the session's gate). */
  readonly runHooks: (event: 'UserPromptExpansion', input: Readonly<Record<string, unknown>>, signal: AbortSignal) => Promise<HookEventResult>;
  readonly signal: AbortSignal;
}

/** Expands `prompt` when it names a custom command. Never throws. */
export async function expandPrompt(prompt: string, deps: PromptExpansionDeps): Promise<PromptExpansionResult> {
  const invocation = parseSlashInvocation(prompt);
  if (!invocation) return { kind: 'unchanged' };
  const command = (await deps.commands()).commands.find((c) => c.name === invocation.name);
  if (!command) return { kind: 'unchanged' };
  // The files its `@path`s attach: their nested memory loads as for a read.
  const files: string[] = [];
  const expansion = await expandCommand(command, invocation.args, {
    cwd: deps.ctx.cwd,
    runShell: (cmd) => runThroughBashTool(cmd, deps),
    readFile: async (abs) => {
      const denied = deps.ctx.rules?.evaluate('Read', { file_path: abs }, deps.ctx.cwd);
      if (denied && denied.behavior !== 'allow')
        return { ok: false, error: `${denied.behavior === 'deny' ? 'denied' : 'held'} by permission rule ${denied.rule}` };
      const where = await resolveWorkspacePath(abs, {
        cwd: deps.ctx.cwd,
        workspaceRoot: deps.ctx.projectDir,
        allowOutsideWorkspace: (real) => askOutsideRead(real, `/${command.name} attaches ${real}, outside the workspace ${deps.ctx.projectDir}`, deps),
      });
      if (!where.ok) return { ok: false, error: where.error };
      try {
        // The checked real path: the link itself could be swapped after the check.
        const text = await readBoundedTextFile(where.realPath);
        if (text === undefined) return { ok: false, error: 'no such file' };
        files.push(abs);
        return { ok: true, text };
      } catch (error) {
        return { ok: false, error: thrownMessage(error) };
      }
    },
  });
  if (!expansion.ok) return { kind: 'refused', reason: expansion.error };
  const hooked = await deps.runHooks(
    'UserPromptExpansion',
    forEvent('UserPromptExpansion', deps.envelope, {
      expansion_type: 'slash_command',
      command_name: command.name,
      command_args: invocation.args,
      command_source: command.scope,
      prompt: expansion.prompt,
    }),
    deps.signal,
  );
  if (hooked.decision === 'deny' || hooked.decision === 'stop')
    return { kind: 'refused', reason: hooked.reason ?? `/${command.name} was blocked by a UserPromptExpansion hook`, byHook: true };
  return { kind: 'expanded', prompt: expansion.prompt, command: command.name, files };
}

/**
 * A person's yes for one read outside the workspace (Allow / Deny, nothing remembered: the
 * Read tool grants no more). No one to ask (headless) is a no, whatever the ask fallback.
 */
async function askOutsideRead(realPath: string, reason: string, deps: PromptExpansionDeps): Promise<boolean> {
  const provider = deps.ctx.asks.provider;
  if (!provider) return false;
  const answer = await provider.requestPermission(
    {
      ...deps.agent,
      sessionId: deps.ctx.sessionId,
      event: 'UserPromptExpansion',
      toolName: 'Read',
      toolInput: { file_path: realPath },
      reason,
      kind: 'hook',
      askedBy: [],
    },
    deps.signal,
  );
  return answer.decision === 'allow' && !deps.signal.aborted;
}

/** One pre-execution command as a Bash tool call of the main agent: hooks, rules, popup, then the tool. */
async function runThroughBashTool(command: string, deps: PromptExpansionDeps): Promise<{ ok: true; output: string } | { ok: false; error: string }> {
  const { ctx, agent } = deps;
  const bash = deps.tools.find((t) => t.name === 'Bash');
  if (!bash) return { ok: false, error: 'the Bash tool is not available' };
  const inputs = new HookInputs({
    ...agent,
    sessionId: ctx.sessionId,
    transcriptPath: ctx.sessionTranscriptPath,
    cwd: ctx.cwd,
    permissionMode: ctx.permissionMode,
    promptId: ctx.promptId,
  });
  const outcome = await runToolCall(
    { id: `toolu_cmd_${randomUUID().replace(/-/g, '').slice(0, 20)}`, name: 'Bash', argumentsText: JSON.stringify({ command }) },
    {
      ctx,
      agent,
      tools: new Map([['Bash', bash]]),
      inputs,
      gate: PermissionGate.forAgent(ctx, agent, inputs),
      context: new ContextBuffer(),
      toolContext: {
        cwd: ctx.cwd,
        workspaceRoot: ctx.projectDir,
        sessionId: ctx.sessionId,
        agentId: agent.agentId,
        todos: ctx.todos,
        ...(ctx.envFile ? { envFile: ctx.envFile } : {}),
        ...(ctx.shellCwd ? { shellCwd: ctx.shellCwd } : {}),
      },
      signal: deps.signal,
    },
  );
  return outcome.isError ? { ok: false, error: outcome.content } : { ok: true, output: outcome.content };
}
