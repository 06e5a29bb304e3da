import type { HookEventResult } from '../hooks/hookRunTypes';
import type { ModelToolCall } from '../model/modelClient';
import type { PolicyVerdict } from '../permissions/permissionMode';
import type { HookVerdict } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import { hookSpecificValues } from './hookSpecificFields';
import { callFailed, verdictOf } from './toolCallScope';
import type { ToolCallOutcome, ToolCallScope, ToolInput } from './toolCallScope';
import type { AnyAgentTool } from './tools/tool';
import { validateToolInput } from './tools/validateToolInput';

/** A call cleared to run: the input it runs with, what Post hooks show, its policy and the verdict its card shows. */
export interface PermittedCall {
  readonly kind: 'permitted';
  readonly input: ToolInput;
  /** What PostToolUse(Failure) shows as `tool_input` when a hook rewrote the input (as the hook wrote it). */
  readonly shownInput: ToolInput | undefined;
  readonly policy: PolicyVerdict;
  readonly verdict: HookVerdict | undefined;
}

/** A call that will not run; `outcome` is what the model gets. */
export interface RefusedCall {
  readonly kind: 'refused';
  readonly outcome: ToolCallOutcome;
}

/** What PreToolUse left of a call: its result, the input to run, its policy and the input Post hooks show. */
interface PreChecked {
  readonly kind: 'checked';
  readonly pre: HookEventResult;
  readonly input: ToolInput;
  readonly policy: PolicyVerdict;
  readonly shownInput: ToolInput | undefined;
}

/**
 * PreToolUse (deny / ask / allow / rewrite), then the permission policy and its asks. Rules and
 * modes judge the input that will actually run: a hook's rewrite is judged again, so a deny
 * rule still catches `rm` written by a hook and an allow rule for the original command does not
 * wave the rewritten one through. A denied call gets PermissionDenied.
 */
export async function permitCall(call: ModelToolCall, tool: AnyAgentTool, input: ToolInput, scope: ToolCallScope): Promise<PermittedCall | RefusedCall> {
  const checked = await preToolUse(call, tool, input, scope);
  return checked.kind === 'refused' ? checked : policyAsk(call, tool, checked, scope);
}

async function preToolUse(call: ModelToolCall, tool: AnyAgentTool, validated: ToolInput, scope: ToolCallScope): Promise<PreChecked | RefusedCall> {
  const { agent, gate } = scope;
  const policyFor = (candidate: ToolInput): PolicyVerdict => gate.policy(tool.name, candidate, tool.readOnly);
  let input = validated;
  let policy = policyFor(input);
  // What PostToolUse(Failure) shows as `tool_input`: a hook's `updatedInput` as the hook wrote
  // it (Claude Code replaces the input with it), while the call runs with that replacement
  // merged over the model's input and validated.
  let shownInput: ToolInput | undefined;
  // A hook's ask is settled with the policy of the input it would run, so deny rules still win.
  const pre = await gate.run('PreToolUse', scope.inputs.preToolUse(tool.name, input, call.id), scope.signal, {
    validateUpdatedInput: (candidate, written) => {
      const check = validateToolInput(tool, { ...input, ...candidate });
      if (check.ok) shownInput = { ...(written ?? candidate) };
      return check.ok ? { ok: true, input: check.input as ToolInput } : { ok: false, error: check.error };
    },
    askAbout: (result) => {
      if (result.cancelled || scope.signal.aborted) return undefined;
      const asked = result.updatedInput ?? input;
      // A hook asked: the card shows it is waiting for the person.
      scope.ctx.emit({ type: 'toolStatus', agent, toolUseId: call.id, status: 'waiting-approval', input: asked });
      return { toolName: tool.name, toolInput: asked, policy: policyFor(asked) };
    },
  });
  scope.context.collect(pre, `PreToolUse:${tool.name}`);
  emitSystemMessages(scope.ctx.emit, agent, pre);
  if (pre.cancelled || scope.signal.aborted) return refused(stoppedByUser(scope, call, tool.name));
  if (pre.updatedInput) {
    // The runner already checked the merged rewrite against the schema; parse it again so
    // the tool gets exactly what its schema produces (defaults, stripped keys).
    const rewritten = validateToolInput(tool, pre.updatedInput);
    if (rewritten.ok) {
      input = rewritten.input as ToolInput;
      policy = policyFor(input);
    }
  } else shownInput = undefined;
  if (pre.decision === 'stop') {
    const reason = pre.reason ?? 'a PreToolUse hook stopped the agent';
    const out = callFailed(scope, call, `${tool.name} was not run: ${reason}`, verdictOf(pre, 'PreToolUse'), 'denied');
    return refused({ ...out, stopReason: reason });
  }
  if (pre.decision === 'deny') {
    const reason = pre.reason ?? `Hook PreToolUse:${tool.name} denied this tool`;
    const out = callFailed(
      scope,
      call,
      pre.asked ? `The user denied ${tool.name}${pre.reason ? ` (the hook asked: ${pre.reason})` : ''}.` : `Blocked by a PreToolUse hook: ${reason}`,
      verdictOf(pre, 'PreToolUse'),
      'denied',
    );
    return refused(await denied(scope, tool.name, input, call.id, out));
  }
  return { kind: 'checked', pre, input, policy, shownInput };
}

/** The rule/mode verdict after PreToolUse: a deny refuses, an ask goes to the gate (PermissionRequest, the person). */
async function policyAsk(call: ModelToolCall, tool: AnyAgentTool, checked: PreChecked, scope: ToolCallScope): Promise<PermittedCall | RefusedCall> {
  const { gate } = scope;
  const { pre, policy } = checked;
  let { input, shownInput } = checked;
  const deny = async (content: string, verdict: HookVerdict): Promise<RefusedCall> =>
    refused(await denied(scope, tool.name, input, call.id, callFailed(scope, call, content, verdict, 'denied')));
  let verdict: HookVerdict | undefined = pre.decision === 'allow' ? verdictOf(pre, 'PreToolUse') : undefined;
  // A hook's allow skips the ask, but never beats a deny rule or plan mode.
  if (policy.behavior === 'deny') {
    return deny(`${tool.name} was not run: ${policy.reason}.`, {
      event: 'permission',
      decision: 'deny',
      reason: policy.reason,
      decidedBy: gate.deniedBy(policy),
    });
  }
  // A hook's allow skips a rule's or the mode's ask, but not a protected write's (Claude Code too),
  // nor Restricted Mode's — unless that allow was already a person's answer to the hook's ask.
  const personAllowed = pre.asked && pre.decision === 'allow' && pre.decidedBy?.kind === 'user';
  if (policy.behavior === 'ask' && (pre.decision !== 'allow' || policy.by === 'protected' || (policy.by === 'restricted' && !personAllowed))) {
    scope.ctx.emit({ type: 'toolStatus', agent: scope.agent, toolUseId: call.id, status: 'waiting-approval', input });
    const answer = await gate.decide({ event: 'PreToolUse', toolName: tool.name, toolInput: input, policy }, scope.signal);
    // Stop while the question was open: nobody denied the call, the person cancelled the turn.
    if (answer.decision === 'deny' && scope.signal.aborted) return refused(stoppedByUser(scope, call, tool.name));
    verdict = { event: 'permission', decision: answer.decision, ...(answer.reason ? { reason: answer.reason } : {}), decidedBy: answer.decidedBy };
    if (answer.decision === 'deny') {
      return deny(
        answer.decidedBy.kind === 'user' ? `The user denied ${tool.name}.` : `${tool.name} was not run: ${answer.reason ?? 'permission denied'}.`,
        verdict,
      );
    }
    const granted = answer.rule ?? policy.suggestedRule;
    if ((answer.scope === 'session' || answer.scope === 'always') && granted) gate.grant(granted);
    if (answer.updatedInput) {
      // A PermissionRequest hook allowed a rewritten call: it must pass the schema and the deny rules too.
      const rewritten = validateToolInput(tool, answer.updatedInput);
      if (!rewritten.ok) {
        const why = `${tool.name} was not run: a PermissionRequest hook rewrote the input into something invalid: ${rewritten.error}`;
        return refused(callFailed(scope, call, why, verdict, 'denied'));
      }
      input = rewritten.input as ToolInput;
      shownInput = answer.updatedInput as ToolInput;
      const again = gate.policy(tool.name, input, tool.readOnly);
      if (again.behavior === 'deny' || (again.behavior === 'ask' && again.by === 'protected' && policy.by !== 'protected')) {
        return deny(`${tool.name} was not run: ${again.reason}.`, {
          event: 'permission',
          decision: 'deny',
          reason: again.reason,
          decidedBy: again.behavior === 'deny' ? gate.deniedBy(again) : { kind: 'rule' },
        });
      }
    }
  }
  // Who decided is always on the card: with no hook's or person's word, the policy's allow.
  if (!verdict && policy.behavior === 'allow') verdict = { event: 'permission', decision: 'allow', decidedBy: gate.allowedBy(policy) };
  return { kind: 'permitted', input, shownInput, policy, verdict };
}

/**
 * PermissionDenied: the call was denied (a rule, the mode, a hook or the person). Its hooks
 * observe; `hookSpecificOutput.retry: true` tells the model it may try the call again.
 */
async function denied(scope: ToolCallScope, toolName: string, input: ToolInput, toolUseId: string, out: ToolCallOutcome): Promise<ToolCallOutcome> {
  if (!scope.gate.hasHooks('PermissionDenied')) return out;
  const result = await scope.gate.run('PermissionDenied', scope.inputs.permissionDenied(toolName, input, toolUseId, out.content), scope.signal);
  emitSystemMessages(scope.ctx.emit, scope.agent, result);
  const retry = hookSpecificValues(result, 'retry').includes(true);
  return retry ? { ...out, content: `${out.content}\nA PermissionDenied hook says this call may be retried.` } : out;
}

/** A call cut short by Stop before it ran: the card says cancelled, as Hook Runs does for the hooks it cut. */
function stoppedByUser(scope: ToolCallScope, call: ModelToolCall, toolName: string): ToolCallOutcome {
  return callFailed(scope, call, `${toolName} was not run: stopped by the user.`, undefined, 'cancelled');
}

function refused(outcome: ToolCallOutcome): RefusedCall {
  return { kind: 'refused', outcome };
}
