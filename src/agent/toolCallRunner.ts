import type { AgentRef, HookEventResult } from '../hooks/hookRunTypes';
import type { ModelToolCall } from '../model/modelClient';
import type { HookVerdict } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import { EventInputs } from './eventInputs';
import { fileToolTarget } from './memory/lazyMemory';
import { describeMemoryFile } from './memory/promptContext';
import { hookSpecificValues } from './hookSpecificFields';
import type { ContextBuffer } from './contextBuffer';
import type { HookDispatcher } from './hookDispatcher';
import type { HookInputs } from './hookInputs';
import type { PolicyVerdict } from '../permissions/permissionMode';
import type { PermissionGate } from './permissionGate';
import type { RunContext } from './runContext';
import type { AnyAgentTool, ToolContext, ToolResult } from './tools/tool';
import { validateToolInput } from './tools/validateToolInput';
import { parseBoundedJson, type BoundedJsonResult } from '../shared/boundedJson';
import { settleProtectedChanges, watchProtected } from './protectedBackstop';

/** What one tool call produced for the conversation, and whether the run must end. */
export interface ToolCallOutcome {
  readonly content: string;
  readonly isError: boolean;
  /** Set when a hook said stop (`continue: false`): the run ends with this reason. */
  readonly stopReason?: string;
}

/** The run context plus what is the calling agent's own: its tools, hook inputs, gate and context buffer. */
export interface ToolCallScope {
  readonly ctx: RunContext;
  readonly agent: AgentRef;
  readonly tools: ReadonlyMap<string, AnyAgentTool>;
  /** The agent's dispatcher (the raw runner behind it): PreToolUse's ask is settled below with the call's policy. */
  readonly hooks: HookDispatcher;
  readonly inputs: HookInputs;
  readonly gate: PermissionGate;
  readonly context: ContextBuffer;
  readonly toolContext: Omit<ToolContext, 'signal'>;
  readonly signal: AbortSignal;
}

type Input = Record<string, unknown>;

/**
 * Runs one tool call through the skeleton: parse + validate (no hooks for invalid input) →
 * PreToolUse (deny / ask / allow / rewrite) → permission policy and asks → the tool →
 * PostToolUse (context, replace result, block) or PostToolUseFailure. Never throws. A call
 * that was denied (by a hook, a rule, the mode or a person) never ran: no PostToolUseFailure
 * fires for it, as in Claude Code.
 */
export async function runToolCall(call: ModelToolCall, deps: ToolCallScope): Promise<ToolCallOutcome> {
  const { agent, gate } = deps;
  const emit = deps.ctx.emit;
  const tool = deps.tools.get(call.name);
  const rawInput =
    call.argumentsError !== undefined ? ({ ok: false, problem: 'depth', error: call.argumentsError } as const) : parseArguments(call.argumentsText);
  emit({
    type: 'toolCall',
    agent,
    toolUseId: call.id,
    toolName: call.name,
    input: rawInput.ok ? rawInput.value : call.argumentsText,
    summary: tool && rawInput.ok ? safeSummary(tool, rawInput.value) : call.name,
  });

  const fail = (content: string, verdict?: HookVerdict, status: 'denied' | 'failed' = 'failed'): ToolCallOutcome => {
    emit({ type: 'toolStatus', agent, toolUseId: call.id, status, result: content, isError: true, ...(verdict ? { verdict } : {}) });
    return { content, isError: true };
  };

  if (!tool) return fail(`Unknown tool "${call.name}". Available tools: ${[...deps.tools.keys()].join(', ')}.`);
  if (!rawInput.ok) {
    if (rawInput.problem !== 'syntax') return fail(`${call.name}: ${rawInput.error}. Send the call again with arguments as a flat JSON object.`);
    return fail(`${call.name}: the arguments are not valid JSON (${rawInput.error}). Send the call again with a valid JSON object.`);
  }
  const validated = validateToolInput(tool, rawInput.value);
  if (!validated.ok) return fail(validated.error);
  let input = validated.input as Input;

  // Rules and modes judge the input that will actually run: a hook's rewrite is judged again,
  // so a deny rule still catches `rm` written by a hook and an allow rule for the original
  // command does not wave the rewritten one through.
  const policyFor = (candidate: Input): PolicyVerdict => gate.policy(tool.name, candidate, tool.readOnly);
  let policy = policyFor(input);

  // What PostToolUse(Failure) shows as `tool_input`: a hook's `updatedInput` as the hook wrote
  // it (Claude Code replaces the input with it), while the call runs with that replacement
  // merged over the model's input and validated.
  let shownInput: Input | undefined;
  // PreToolUse. A hook's ask goes through the gate with the policy of the input it would run, so deny rules still win.
  let pre = await deps.hooks.run('PreToolUse', deps.inputs.preToolUse(tool.name, input, call.id), {
    signal: deps.signal,
    validateUpdatedInput: (candidate, written) => {
      const check = validateToolInput(tool, { ...input, ...candidate });
      if (check.ok) shownInput = { ...(written ?? candidate) };
      return check.ok ? { ok: true, input: check.input as Input } : { ok: false, error: check.error };
    },
  });
  if (pre.decision === 'ask' && !pre.cancelled && !deps.signal.aborted) {
    const asked = pre.updatedInput ?? input;
    // A hook asked: the card shows it is waiting for the person.
    emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'waiting-approval', input: asked });
    pre = await gate.settle(pre, { toolName: tool.name, toolInput: asked, policy: policyFor(asked) }, deps.signal);
  }
  deps.context.collect(pre, `PreToolUse:${tool.name}`);
  emitSystemMessages(deps.ctx.emit, deps.agent, pre);
  if (pre.cancelled || deps.signal.aborted) return fail(`${tool.name} was not run: stopped by the user.`, undefined, 'denied');
  if (pre.updatedInput) {
    // The runner already checked the merged rewrite against the schema; parse it again so
    // the tool gets exactly what its schema produces (defaults, stripped keys).
    const rewritten = validateToolInput(tool, pre.updatedInput);
    if (rewritten.ok) {
      input = rewritten.input as Input;
      policy = policyFor(input);
    }
  } else shownInput = undefined;
  if (pre.decision === 'stop') {
    const reason = pre.reason ?? 'a PreToolUse hook stopped the agent';
    const out = fail(`${tool.name} was not run: ${reason}`, verdictOf(pre, 'PreToolUse'), 'denied');
    return { ...out, stopReason: reason };
  }
  if (pre.decision === 'deny') {
    const reason = pre.reason ?? `Hook PreToolUse:${tool.name} denied this tool`;
    const out = fail(
      pre.asked ? `The user denied ${tool.name}${pre.reason ? ` (the hook asked: ${pre.reason})` : ''}.` : `Blocked by a PreToolUse hook: ${reason}`,
      verdictOf(pre, 'PreToolUse'),
      'denied',
    );
    return denied(deps, tool.name, input, call.id, out);
  }

  let verdict: HookVerdict | undefined = pre.decision === 'allow' ? verdictOf(pre, 'PreToolUse') : undefined;
  // A hook's allow skips the ask, but never beats a deny rule or plan mode.
  if (policy.behavior === 'deny') {
    const out = fail(
      `${tool.name} was not run: ${policy.reason}.`,
      { event: 'permission', decision: 'deny', reason: policy.reason, decidedBy: gate.deniedBy(policy) },
      'denied',
    );
    return denied(deps, tool.name, input, call.id, out);
  }
  // A hook's allow skips a rule's or the mode's ask, but not a protected write's (Claude Code too),
  // nor Restricted Mode's — unless that allow was already a person's answer to the hook's ask.
  const personAllowed = pre.asked && pre.decision === 'allow' && pre.decidedBy?.kind === 'user';
  if (policy.behavior === 'ask' && (pre.decision !== 'allow' || policy.by === 'protected' || (policy.by === 'restricted' && !personAllowed))) {
    emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'waiting-approval', input });
    const answer = await gate.decide({ event: 'PreToolUse', toolName: tool.name, toolInput: input, policy }, deps.signal);
    verdict = { event: 'permission', decision: answer.decision, ...(answer.reason ? { reason: answer.reason } : {}), decidedBy: answer.decidedBy };
    if (answer.decision === 'deny') {
      const out = fail(
        answer.decidedBy.kind === 'user' ? `The user denied ${tool.name}.` : `${tool.name} was not run: ${answer.reason ?? 'permission denied'}.`,
        verdict,
        'denied',
      );
      return denied(deps, tool.name, input, call.id, out);
    }
    if ((answer.scope === 'session' || answer.scope === 'always') && policy.suggestedRule) gate.grant(policy.suggestedRule);
    if (answer.updatedInput) {
      // A PermissionRequest hook allowed a rewritten call: it must pass the schema and the deny rules too.
      const rewritten = validateToolInput(tool, answer.updatedInput);
      if (!rewritten.ok)
        return fail(`${tool.name} was not run: a PermissionRequest hook rewrote the input into something invalid: ${rewritten.error}`, verdict, 'denied');
      input = rewritten.input as Input;
      shownInput = answer.updatedInput as Input;
      const again = policyFor(input);
      if (again.behavior === 'deny' || (again.behavior === 'ask' && again.by === 'protected' && policy.by !== 'protected')) {
        const out = fail(
          `${tool.name} was not run: ${again.reason}.`,
          { event: 'permission', decision: 'deny', reason: again.reason, decidedBy: again.behavior === 'deny' ? gate.deniedBy(again) : { kind: 'rule' } },
          'denied',
        );
        return denied(deps, tool.name, input, call.id, out);
      }
    }
  }

  emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'running', input, ...(verdict ? { verdict } : {}) });
  // The backstop: a change to the protected set that no person approved is caught after the call
  // (a protected call that reached here was approved, by a person or a PermissionRequest hook).
  const watched = policy.behavior === 'ask' && policy.by === 'protected' ? undefined : watchProtected(deps.ctx, tool.readOnly);
  const started = Date.now();
  let result: ToolResult = await tool.execute(input, { ...deps.toolContext, signal: deps.signal, toolUseId: call.id });
  const durationMs = Date.now() - started;
  if (watched) {
    const note = await settleProtectedChanges(deps, watched, tool.name, input);
    if (note !== undefined) result = { ...result, content: `${result.content}\n\n${note}` };
  }
  // The transcript's toolUseResult, as Claude Code writes it.
  if (!result.isError) deps.ctx.parentTranscript?.noteToolResult(call.id, result.data);

  if (result.isError) {
    await postFailure(deps, tool.name, shownInput ?? input, call.id, result.content, durationMs, deps.signal.aborted);
    emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'failed', result: result.content, isError: true });
    return { content: result.content, isError: true };
  }

  const post = await gate.run(
    'PostToolUse',
    deps.inputs.postToolUse(tool.name, shownInput ?? input, call.id, result.data ?? result.content, durationMs),
    deps.signal,
  );
  deps.context.collect(post, `PostToolUse:${tool.name}`);
  emitSystemMessages(deps.ctx.emit, deps.agent, post);
  let content = result.content;
  if (post.hasUpdatedResult) content = typeof post.updatedResult === 'string' ? post.updatedResult : replacementText(post.updatedResult, content);
  if (post.decision === 'deny' && post.reason)
    content += `\n\n<system-reminder>\nPostToolUse:${tool.name} hook blocking error: ${post.reason}\n</system-reminder>`;
  await loadLazyMemory(deps, tool.name, input);
  const postVerdict = post.decision === 'deny' || post.hasUpdatedResult ? verdictOf(post, 'PostToolUse') : verdict;
  emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'done', result: content, isError: false, ...(postVerdict ? { verdict: postVerdict } : {}) });
  return post.decision === 'stop'
    ? { content, isError: false, stopReason: post.reason ?? 'a PostToolUse hook stopped the agent' }
    : { content, isError: false };
}

/**
 * PermissionDenied: the call was denied (a rule, the mode, a hook or the person). Its hooks
 * observe; `hookSpecificOutput.retry: true` tells the model it may try the call again.
 */
async function denied(deps: ToolCallScope, toolName: string, input: Input, toolUseId: string, out: ToolCallOutcome): Promise<ToolCallOutcome> {
  if (deps.hooks.hasHooks?.('PermissionDenied') === false) return out;
  const result = await deps.gate.run('PermissionDenied', new EventInputs(deps.inputs).permissionDenied(toolName, input, toolUseId, out.content), deps.signal);
  emitSystemMessages(deps.ctx.emit, deps.agent, result);
  const retry = hookSpecificValues(result, 'retry').includes(true);
  return retry ? { ...out, content: `${out.content}\nA PermissionDenied hook says this call may be retried.` } : out;
}

/**
 * After a file tool worked on a file: the nested CLAUDE.md and `paths:` rules it brings in
 * (lazyMemory.ts) reach the model as a system-reminder before its next call, as Claude Code
 * attaches them, and InstructionsLoaded fires for each (observation only).
 */
async function loadLazyMemory(deps: ToolCallScope, toolName: string, input: Input): Promise<void> {
  const target = deps.ctx.lazyMemory ? fileToolTarget(toolName, input) : undefined;
  if (!target || !deps.ctx.lazyMemory) return;
  const { files, problems, notes } = await deps.ctx.lazyMemory.touch(target, deps.signal);
  for (const problem of problems) deps.ctx.emit({ type: 'systemMessage', agent: deps.agent, text: `Memory: ${problem}`, source: 'memory' });
  const withText = files.filter((f) => f.content.trim() !== '');
  // A file left out reaches the model as a note naming it, never its content.
  if (withText.length > 0 || notes.length > 0) deps.context.add([...withText.map(describeMemoryFile), ...notes].join('\n\n'));
  if (files.length === 0 || deps.hooks.hasHooks?.('InstructionsLoaded') === false) return;
  const events = new EventInputs(deps.inputs);
  for (const file of files) {
    const input = events.event('InstructionsLoaded', {
      file_path: file.path,
      memory_type: file.memoryType,
      load_reason: file.loadReason,
      ...(file.globs ? { globs: [...file.globs] } : {}),
      ...(file.triggerFilePath ? { trigger_file_path: file.triggerFilePath } : {}),
      ...(file.parentPath ? { parent_file_path: file.parentPath } : {}),
    });
    emitSystemMessages(deps.ctx.emit, deps.agent, await deps.gate.run('InstructionsLoaded', input, deps.signal));
  }
}

async function postFailure(
  deps: ToolCallScope,
  toolName: string,
  input: Input,
  toolUseId: string,
  error: string,
  durationMs: number,
  isInterrupt = false,
): Promise<void> {
  const result = await deps.gate.run(
    'PostToolUseFailure',
    deps.inputs.postToolUseFailure(toolName, input, toolUseId, error, durationMs, isInterrupt),
    deps.signal,
  );
  deps.context.collect(result, `PostToolUseFailure:${toolName}`);
  emitSystemMessages(deps.ctx.emit, deps.agent, result);
}

function verdictOf(result: HookEventResult, event: string): HookVerdict {
  return {
    event,
    decision: result.decision ?? 'allow',
    ...(result.reason ? { reason: result.reason } : {}),
    ...(result.decidedBy ? { decidedBy: result.decidedBy } : {}),
  };
}

/**
 * The model's arguments text, parsed with a depth limit: a value thousands of levels deep
 * parses, but overflows the stack wherever it is serialized again (events, transcript,
 * hook input), which ended the run. Errors read "tool arguments nested
 * deeper than 64 levels".
 */
function parseArguments(text: string): BoundedJsonResult {
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = parseBoundedJson(text);
  return parsed.ok || parsed.problem === 'syntax' ? parsed : { ...parsed, error: `tool arguments ${parsed.error}` };
}

/** A PostToolUse replacement as text for the model; the tool's own text if it cannot be serialized. */
function replacementText(value: unknown, original: string): string {
  try {
    return JSON.stringify(value) ?? original;
  } catch {
    return original;
  }
}

function safeSummary(tool: AnyAgentTool, raw: unknown): string {
  const parsed = tool.inputSchema.safeParse(raw);
  return parsed.success ? tool.summarize(parsed.data) : tool.name;
}
