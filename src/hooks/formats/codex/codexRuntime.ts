import type { HookActionContext } from '../../hookAction';
import type { HookEvent } from '../../hookEvent';
import type { HookOutcome } from '../../hookOutcome';
import { toolInputOf } from '../formatMatchers';
import { finalJsonObject, outObject, outString, stderrReason } from '../formatOutput';
import type { FormatBinding, FormatInput, FormatRun, FormatVerdict } from '../hookFormat';
import { codexToolInput, codexToolName } from './codexTools';

/**
 * OpenAI Codex's hook semantics at run time (docs/formats/codex.md). Input and output are Claude
 * Code's shapes with Codex's differences: its tool names (`apply_patch`, `spawn_agent`), `turn_id`
 * and `model` on every event; exit 2 blocks with stderr, any other failure lets the operation go
 * on; on PreToolUse an `ask`, `approve`, `continue: false` or `suppressOutput` marks the run failed
 * and the tool proceeds; `updatedInput` counts only beside `allow`; on PermissionRequest an
 * `updatedPermissions` or `interrupt` fails closed; plain stdout is context only on SessionStart,
 * UserPromptSubmit and SubagentStart.
 */

/** The stdin JSON of a Codex hook (no variables besides the process's own). */
export function codexInput(binding: FormatBinding, event: HookEvent, input: Readonly<Record<string, unknown>>, ctx: HookActionContext): FormatInput {
  const cwd = typeof input.cwd === 'string' ? input.cwd : ctx.cwd;
  const { hookwise: _ours, ...claude } = input;
  const out: Record<string, unknown> = { ...claude, hook_event_name: binding.nativeEvent, session_id: ctx.sessionId, cwd, turn_id: turnId(input) };
  if (typeof out.model !== 'string') out.model = modelOf(input);
  const tool = typeof input.tool_name === 'string' ? input.tool_name : undefined;
  if (tool !== undefined) {
    out.tool_name = codexToolName(tool);
    out.tool_input = codexToolInput(tool, toolInputOf(input), cwd);
  }
  // Codex's PostToolUse also sees a Bash command that exited non-zero: the failure as its response.
  if (event === 'PostToolUseFailure') {
    delete out.error;
    delete out.is_interrupt;
    out.tool_response = { error: input.error };
  }
  return { stdin: out, env: {} };
}

function turnId(input: Readonly<Record<string, unknown>>): string {
  const id = input.prompt_id ?? input.tool_use_id;
  return typeof id === 'string' ? id : '';
}

function modelOf(input: Readonly<Record<string, unknown>>): string {
  const ours = input.hookwise;
  const model = ours !== null && typeof ours === 'object' ? (ours as Record<string, unknown>).model : undefined;
  return typeof model === 'string' ? model : '';
}

/** Events whose plain stdout Codex adds to the model's context. */
const PLAIN_CONTEXT = new Set<HookEvent>(['SessionStart', 'UserPromptSubmit', 'SubagentStart']);

/** How Codex reads a finished hook. */
export function codexVerdict(run: FormatRun): FormatVerdict {
  const { event, exitCode, stdout, stderr } = run;
  if (exitCode === 2) return { status: 'ok', outcome: blocked(event, stderrReason(stderr, 'Blocked by a Codex hook (exit code 2)')) };
  if (exitCode !== 0)
    return { status: 'failed', error: `exited with code ${exitCode ?? 'none (signal)'}${stderr.trim() ? `: ${stderrReason(stderr, '')}` : ''}` };
  const read = finalJsonObject(stdout);
  if (read.json === undefined) {
    if (read.malformed) return { status: 'failed', error: 'stdout looked like JSON and did not parse' };
    const plain = stdout.trim();
    return { status: 'ok', outcome: plain !== '' && PLAIN_CONTEXT.has(event) ? { additionalContext: plain } : {} };
  }
  return outcomeOf(event, read.json, typeof run.input.tool_name === 'string' ? run.input.tool_name : '');
}

/** Exit 2 (or `decision: "block"`) on an event, in Hookwise's terms. */
function blocked(event: HookEvent, reason: string): HookOutcome {
  if (event === 'Stop' || event === 'SubagentStop') return { decision: 'continue', reason };
  if (event === 'PreToolUse' || event === 'PermissionRequest' || event === 'UserPromptSubmit' || event === 'PostToolUse' || event === 'PostToolUseFailure')
    return { decision: 'deny', reason };
  return { systemMessage: reason };
}

function outcomeOf(event: HookEvent, json: Record<string, unknown>, tool: string): FormatVerdict {
  const specific = outObject(json, 'hookSpecificOutput');
  const context = outString(specific, 'additionalContext');
  const systemMessage = outString(json, 'systemMessage');
  const extras: { -readonly [K in keyof HookOutcome]: HookOutcome[K] } = {};
  if (context !== undefined && context !== '') extras.additionalContext = context;
  if (systemMessage !== undefined) extras.systemMessage = systemMessage;
  if (event === 'PreToolUse') return preToolUse(json, specific, extras, tool);
  if (json.continue === false) return ok({ decision: 'stop', reason: outString(json, 'stopReason') ?? 'A Codex hook stopped the agent' });
  if (event === 'PermissionRequest') {
    const decision = outObject(specific, 'decision');
    if (decision?.updatedPermissions !== undefined || decision?.interrupt !== undefined)
      return ok({ decision: 'deny', reason: 'A Codex hook answered with updatedPermissions or interrupt, which Codex refuses (fail closed)' });
    const behavior = outString(decision, 'behavior');
    if (behavior === 'deny') return ok({ decision: 'deny', reason: outString(decision, 'message') ?? 'Denied by a Codex hook' });
    if (behavior === 'allow') return ok({ decision: 'allow' });
    return ok(extras);
  }
  if (json.decision === 'block') return ok({ ...extras, ...blocked(event, outString(json, 'reason') ?? 'Blocked by a Codex hook') });
  return ok(extras);
}

function preToolUse(json: Record<string, unknown>, specific: Record<string, unknown> | undefined, extras: HookOutcome, tool: string): FormatVerdict {
  const permission = outString(specific, 'permissionDecision');
  if (permission === 'deny') return ok({ ...extras, decision: 'deny', reason: outString(specific, 'permissionDecisionReason') ?? 'Denied by a Codex hook' });
  if (json.decision === 'block') return ok({ ...extras, decision: 'deny', reason: outString(json, 'reason') ?? 'Denied by a Codex hook' });
  if (permission === 'ask' || permission === 'approve' || json.decision === 'approve' || json.continue === false || json.suppressOutput === true)
    return {
      status: 'failed',
      error: 'Codex does not support ask, approve, continue: false or suppressOutput on PreToolUse: it marks the hook failed and the tool proceeds',
    };
  const updated = outObject(specific, 'updatedInput');
  // A rewrite counts only beside allow; it does not skip the approval Hookwise's rules ask for.
  if (permission === 'allow' && updated !== undefined) {
    // An edit reached the hook as patch text; a rewritten patch has no Hookwise Edit/Write input to become.
    if (codexToolName(tool) === 'apply_patch')
      return {
        status: 'ok',
        outcome: extras,
        warnings: ['updatedInput on apply_patch (an Edit or Write) is not carried over: the edit runs as the model asked'],
      };
    return ok({ ...extras, updatedInput: updated });
  }
  return ok(extras);
}

function ok(outcome: HookOutcome): FormatVerdict {
  return { status: 'ok', outcome };
}
