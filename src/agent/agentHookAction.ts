import { randomBytes } from 'node:crypto';
import type { HookAction, HookActionContext, HookActionResult } from '../hooks/hookAction';
import { blockingOutcome } from '../hooks/actions/interpretCommandResult';
import { parsePromptHookAnswer } from '../hooks/actions/parsePromptHookAnswer';
import { buildPromptHookPrompt } from '../hooks/actions/promptHookAction';
import { proceed } from '../hooks/hookOutcome';
import { hookwiseAgentOf } from '../hooks/hookContext';
import { HookRegistry } from '../hooks/hookRegistry';
import { HookRunner } from '../hooks/hookRunner';
import type { HookRunObserver } from '../hooks/hookRunTypes';
import { createHooksApi } from '../hooks/hooksApi';
import type { ModelClient } from '../model/modelClient';
import type { PermissionRules } from '../permissions/permissionMode';
import { runAgent } from './agentLoop';
import { askPolicy } from './permissionGate';
import { Conversation } from './conversation';
import { registerDefaultLimits } from './defaultLimits';
import { createGlobTool } from './tools/globTool';
import { createGrepTool } from './tools/grepTool';
import type { RipgrepLocator } from './tools/ripgrep';
import { createReadTool } from './tools/readTool';
import { createTodoStore } from './tools/todoStore';
import { thrownMessage } from '../shared/describeThrown';

/** Claude Code's limits for agent hooks. */
export const AGENT_HOOK_MAX_STEPS = 50;
export const AGENT_HOOK_DEFAULT_TIMEOUT_MS = 60_000;

const SYSTEM_PROMPT = [
  'You are evaluating a hook in a coding agent (Hookwise, compatible with Claude Code hooks).',
  'The user message is the hook condition, followed by the JSON input of the event that fired.',
  'You may use the read-only tools Read, Glob and Grep to inspect the workspace (and the transcript at transcript_path).',
  'When you have decided, answer with ONLY valid JSON, no other text and no Markdown:',
  '- {"ok": true} if the condition is met',
  '- {"ok": false, "reason": "<short explanation>"} if it is not',
].join('\n');

/**
 * A `"type": "agent"` hook (docs/hooks.md §3): a subagent with read-only tools (Read, Glob, Grep),
 * at most 50 steps, answering `{ok, reason?}` like a prompt hook. It runs the real loop with
 * its own tiny hook runner (only the step limit), in `dontAsk` spirit: read-only tools never
 * ask. `ok:false` blocks with the reason; prose, errors and the step limit are failures.
 * With `rulesFor`, the session's Read deny rules bind it like the main agent: a denied file
 * cannot be read, and Grep/Glob leave it out (an ask rule is denied — nobody is asked).
 * With `observer` (the session runner's relay), its own hook runs are reported there as a
 * nested agent (type `agent-hook`, a fresh id per run) under the agent whose event fired it.
 */
export class AgentHookAction implements HookAction {
  readonly kind = 'agent';
  readonly label: string;
  readonly dedupKey: string;
  readonly defaultTimeoutMs = AGENT_HOOK_DEFAULT_TIMEOUT_MS;

  constructor(
    readonly prompt: string,
    private readonly model: ModelClient,
    private readonly modelName?: string,
    private readonly rulesFor?: (cwd: string) => PermissionRules,
    private readonly observer?: HookRunObserver,
    /** Where its Grep and Glob find ripgrep (the runtime's); absent = `rg` on PATH. */
    private readonly ripgrep?: RipgrepLocator,
  ) {
    const oneLine = prompt.trim().replace(/\s+/g, ' ');
    this.label = `agent: ${oneLine.length > 110 ? `${oneLine.slice(0, 110)}…` : oneLine}`;
    this.dedupKey = `agent:${prompt}`;
  }

  async run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    const registry = new HookRegistry();
    registerDefaultLimits(createHooksApi(registry, { source: { kind: 'code', label: 'agent hook limits' } }), () => ({
      maxSteps: AGENT_HOOK_MAX_STEPS,
      maxTokens: 0,
      maxWallTimeMs: 0,
    }));
    const hooks = new HookRunner(registry, { projectDir: ctx.projectDir, ...(this.observer ? { observers: [this.observer] } : {}) });
    let inputJson: string;
    try {
      inputJson = JSON.stringify(input);
    } catch (error) {
      return {
        status: 'failed',
        outcome: proceed(),
        error: `could not serialize the hook input as JSON: ${thrownMessage(error)}`,
        failureReason: 'inputNotSerializable',
      };
    }
    const conversation = new Conversation([{ role: 'user', content: buildPromptHookPrompt(this.prompt, inputJson) }]);
    // Its own id per run: two agent hooks running at once are two agents in Hook Runs.
    const agent = {
      agentId: `agent-hook-${randomBytes(4).toString('hex')}`,
      parentAgentId: hookwiseAgentOf(input)?.agent_id ?? (typeof input.agent_id === 'string' ? input.agent_id : null),
      agentType: 'agent-hook',
    };
    const transcriptPath = typeof input.transcript_path === 'string' ? input.transcript_path : '';
    const result = await runAgent({
      ctx: {
        sessionId: ctx.sessionId,
        cwd: ctx.cwd,
        projectDir: ctx.projectDir,
        model: this.model,
        ...(this.modelName ? { modelName: this.modelName } : {}),
        hooks,
        permissionMode: 'default',
        ...(this.rulesFor ? { rules: this.rulesFor(ctx.cwd) } : {}),
        // Nobody is asked inside an agent hook: its tools are read-only, and an ask rule is a deny.
        asks: askPolicy(undefined, 'deny'),
        emit: () => undefined,
        todos: createTodoStore(),
        sessionTranscriptPath: transcriptPath,
        subagents: { agents: [], maxDepth: 0, baseTools: [], transcriptDir: '' },
      },
      agent,
      transcriptPath,
      systemPrompt: SYSTEM_PROMPT,
      conversation,
      tools: [createReadTool(), createGlobTool({ ripgrep: this.ripgrep }), createGrepTool({ ripgrep: this.ripgrep })],
      signal: ctx.signal,
      stopEvent: 'SubagentStop',
    });
    if (result.status === 'cancelled' || ctx.signal.aborted) return { status: 'cancelled', outcome: proceed(), error: 'cancelled' };
    if (result.status !== 'completed') return { status: 'failed', outcome: proceed(), error: `agent hook did not answer: ${result.reason ?? result.status}` };
    const parsed = parsePromptHookAnswer(result.finalText);
    if (!parsed.ok)
      return {
        status: 'failed',
        outcome: proceed(),
        error: `agent hook answer was not JSON {ok, reason}: ${result.finalText.trim().slice(0, 200) || '(empty answer)'}`,
      };
    if (parsed.answer.ok) return { status: 'ok', outcome: proceed() };
    const why = parsed.answer.reason?.trim();
    return { status: 'ok', outcome: blockingOutcome(ctx.event, why ? `Agent hook condition was not met: ${why}` : 'Agent hook condition was not met') };
  }
}
