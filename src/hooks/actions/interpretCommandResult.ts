import { constants } from 'node:os';
import type { HookActionResult } from '../hookAction';
import type { HookEvent } from '../hookEvent';
import { decisionRank, proceed, type HookDecision, type HookOutcome } from '../hookOutcome';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../../shared/processLauncher';
import { parseBoundedJson } from '../../shared/boundedJson';
import { claudeHookOutputSchema, describeZodError, GEMINI_OUTPUT_EVENT_NAMES, unknownOutputFields, type ClaudeHookOutput } from './claudeHookOutputSchema';
import { normalizeOutputAliases } from '../hookAliases';
import { salvageCutJson } from './salvageCutJson';

/** How much of the output was kept (processRunner's flags); absent = all of it. */
export interface CommandOutputCut {
  readonly stdoutTruncated?: boolean;
  readonly stderrTruncated?: boolean;
  /** The cap that applied, in bytes; default 1 MiB. */
  readonly maxOutputBytes?: number;
}

/**
 * Maps a finished command hook (exit code, stdout, stderr) to a result exactly as Claude
 * Code does (docs/hooks.md §3, Claude Code; exit 2 blocks even with JSON on stdout, as since 2.1.90).
 * Pure: no I/O. The caller attaches the raw output.
 *
 * - exit 0: trimmed stdout starting with `{` that parses is Claude's JSON output (a schema
 *   failure, JSON nested deeper than 64 levels, or a `hookEventName` naming another event is
 *   a failure); otherwise the trimmed stdout is `plainOutput` (context / compaction
 *   instructions, routed by the runner).
 * - exit 0 with stdout cut at the cap (`cut.stdoutTruncated`): never "proceed" as if the hook
 *   had said nothing (docs/security.md). A blocking decision the complete part of the JSON
 *   states (deny, block, ask, stop) is kept; anything else is a failure, which
 *   `continueOnFailure: false` turns into a deny.
 * - exit 2: blocking; stderr is the reason (see {@link blockingOutcome}), also when cut.
 * - any other code: valid JSON on stdout decides alone (Claude Code reads JSON on every exit
 *   code; the result carries `jsonOnFailedExit` so fail-closed hooks can refuse it);
 *   otherwise (and for 126, 127, signals) `failed` with a readable message.
 */
export function interpretCommandResult(
  event: HookEvent,
  exitCode: number | null,
  stdout: string,
  stderr: string,
  command: string,
  signal?: string,
  cut: CommandOutputCut = {},
): HookActionResult {
  if (exitCode === 0) return cut.stdoutTruncated ? interpretCutSuccess(event, stdout, cut) : interpretSuccess(event, stdout);
  if (exitCode === 2) {
    const reason = stderr.trim() || 'No stderr output';
    return {
      status: 'ok',
      outcome: blockingOutcome(event, cut.stderrTruncated ? `${reason}… [stderr exceeded ${formatBytes(cut.maxOutputBytes)} and was cut]` : reason),
    };
  }
  return cut.stdoutTruncated
    ? { status: 'failed', outcome: proceed(), error: describeFailure(exitCode, stderr, command, signal) }
    : interpretOtherExit(event, exitCode, stdout, stderr, command, signal);
}

/** "1 MiB", "64 KiB", "100 bytes". */
function formatBytes(bytes = DEFAULT_MAX_OUTPUT_BYTES): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** Decisions that make a call stricter than "proceed": the only ones read from cut output. */
const BLOCKING_RANK = decisionRank('continue');

function interpretCutSuccess(event: HookEvent, stdout: string, cut: CommandOutputCut): HookActionResult {
  const limit = formatBytes(cut.maxOutputBytes);
  const cutJson = salvageCutJson(stdout.trimStart());
  const salvaged = cutJson === undefined ? undefined : normalizeOutputAliases(cutJson);
  if (salvaged !== undefined) {
    const named = (salvaged['hookSpecificOutput'] as { hookEventName?: unknown } | undefined)?.hookEventName;
    const checked = named === undefined || named === event ? claudeHookOutputSchema.safeParse(salvaged) : undefined;
    if (checked?.success) {
      const outcome = outcomeFromJson(event, checked.data);
      if (outcome.decision !== undefined && decisionRank(outcome.decision) >= BLOCKING_RANK) {
        // Only the decision and its reason: a rewrite or context cut off half-way is not used.
        const reason = outcome.reason ?? 'Blocked by hook';
        return {
          status: 'ok',
          outcome: { decision: outcome.decision, reason: `${reason} [hook stdout exceeded ${limit} and was cut; its blocking decision was kept]` },
        };
      }
    }
  }
  return { status: 'failed', outcome: proceed(), error: `stdout exceeded ${limit}; output cut, hook treated as failed`, failureReason: 'outputTooLarge' };
}

/** Events on which exit 2 / `decision: "block"` means "do not stop yet". */
const STOP_EVENTS = new Set<HookEvent>(['Stop', 'SubagentStop']);

/** Events on which exit 2 blocks (deny); elsewhere stderr only informs the user. */
const EXIT2_DENY_EVENTS = new Set<HookEvent>([
  'PreToolUse',
  'PermissionRequest',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  // Claude Code's 2026 events where exit 2 blocks: the task is not created / stays open, the config change is not applied, …
  'PostToolBatch',
  'UserPromptExpansion',
  'TaskCreated',
  'TaskCompleted',
  'ConfigChange',
  'Elicitation',
  'ElicitationResult',
]);

/**
 * The outcome of a blocking result (exit 2) for `event`: deny on tool/prompt/spawn events,
 * continue on Stop/SubagentStop, and elsewhere no decision — the reason is shown to the user only.
 */
export function blockingOutcome(event: HookEvent, reason: string): HookOutcome {
  if (STOP_EVENTS.has(event)) return { decision: 'continue', reason };
  if (EXIT2_DENY_EVENTS.has(event)) return { decision: 'deny', reason };
  return { systemMessage: reason };
}

function interpretSuccess(event: HookEvent, stdout: string): HookActionResult {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return trimmed ? { status: 'ok', outcome: proceed(), plainOutput: trimmed } : { status: 'ok', outcome: proceed() };
  const read = readJsonOutput(event, trimmed);
  // Claude Code: text that starts with `{` but is not JSON is plain output (the runner fails a
  // fail-closed hook on it: a broken deny must not become "proceed" for a policy hook).
  if (read.kind === 'syntax') return { status: 'ok', outcome: proceed(), plainOutput: trimmed, malformedJson: read.error };
  return read.result;
}

type JsonRead = { readonly kind: 'syntax'; readonly error: string } | { readonly kind: 'read'; readonly result: HookActionResult };

/**
 * Reads stdout that starts with `{` as Claude's JSON output: alternate field spellings are
 * normalised first, unknown fields become warnings. A parse error is `syntax`; a schema
 * failure, JSON nested too deep or output for another event is a failed result.
 */
function readJsonOutput(event: HookEvent, trimmed: string): JsonRead {
  const read = parseBoundedJson(trimmed);
  if (!read.ok && read.problem === 'syntax') return { kind: 'syntax', error: read.error };
  // Deeper JSON would overflow the stack downstream (JSON.stringify of the result or the record).
  if (!read.ok) return { kind: 'read', result: { status: 'failed', outcome: proceed(), error: `hook output JSON is ${read.error}` } };
  if (read.value === null || typeof read.value !== 'object' || Array.isArray(read.value))
    return { kind: 'read', result: { status: 'failed', outcome: proceed(), error: 'JSON validation failed: (root): expected an object' } };
  const parsed = geminiEventName(normalizeOutputAliases(read.value as Record<string, unknown>));
  const named = (parsed as { hookSpecificOutput?: { hookEventName?: unknown } }).hookSpecificOutput?.hookEventName;
  if (typeof named === 'string' && named !== event) {
    return {
      kind: 'read',
      result: {
        status: 'failed',
        outcome: proceed(),
        error: `hook returned output for the wrong event: hookSpecificOutput.hookEventName is "${named}" but this hook ran for ${event}`,
      },
    };
  }
  const checked = claudeHookOutputSchema.safeParse(parsed);
  if (!checked.success)
    return { kind: 'read', result: { status: 'failed', outcome: proceed(), error: `JSON validation failed: ${describeZodError(checked.error)}` } };
  const warnings = unknownOutputFields(parsed);
  return { kind: 'read', result: { status: 'ok', outcome: outcomeFromJson(event, checked.data), ...(warnings.length > 0 ? { warnings } : {}) } };
}

/** A Gemini hook's `hookEventName: "BeforeModel"` read as BeforeInference (and AfterModel as AfterInference). */
function geminiEventName(json: Record<string, unknown>): Record<string, unknown> {
  const specific = json['hookSpecificOutput'];
  if (specific === null || typeof specific !== 'object' || Array.isArray(specific)) return json;
  const name = (specific as { hookEventName?: unknown }).hookEventName;
  const ours = typeof name === 'string' ? GEMINI_OUTPUT_EVENT_NAMES[name] : undefined;
  return ours === undefined ? json : { ...json, hookSpecificOutput: { ...specific, hookEventName: ours } };
}

/**
 * Exit codes other than 0 and 2: valid JSON on stdout alone decides, as Claude Code does
 * (JSON is read on every exit code). Anything else keeps the non-blocking failure.
 */
function interpretOtherExit(event: HookEvent, exitCode: number | null, stdout: string, stderr: string, command: string, signal?: string): HookActionResult {
  const error = describeFailure(exitCode, stderr, command, signal);
  const failure: HookActionResult = { status: 'failed', outcome: proceed(), error };
  // Not started, not executable, or killed by a signal (128+n from the shell): a crash, whatever it printed before.
  if (exitCode === null || exitCode === 126 || exitCode === 127 || (exitCode > 128 && SIGNAL_NAMES.has(exitCode - 128))) return failure;
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return failure;
  const read = readJsonOutput(event, trimmed);
  return read.kind === 'read' && read.result.status === 'ok' ? { ...read.result, jsonOnFailedExit: error } : failure;
}

/** Claude's JSON output → HookOutcome. Exported for the tests and prompt-less callers. */
export function outcomeFromJson(event: HookEvent, json: ClaudeHookOutput): HookOutcome {
  let decision: HookDecision | undefined;
  let reason = json.reason;
  let updatedInput: Record<string, unknown> | undefined;
  let updatedResult: unknown;
  let hasUpdatedResult = false;
  let additionalContext: string | undefined;
  const model: Pick<{ -readonly [K in keyof HookOutcome]: HookOutcome[K] }, 'llmRequest' | 'llmResponse' | 'toolConfig'> = {};

  if (json.decision === 'approve') decision = 'allow';
  if (json.decision === 'block') {
    decision = STOP_EVENTS.has(event) ? 'continue' : 'deny';
    reason = json.reason || 'Blocked by hook';
  }

  const specific = json.hookSpecificOutput;
  switch (specific?.hookEventName) {
    case 'PreToolUse':
      if (specific.permissionDecision) {
        // Claude Code keeps the blocking error of a top-level "block" even when
        // permissionDecision says otherwise: the stricter of the two wins.
        const fromSpecific: HookDecision = specific.permissionDecision;
        if (decisionRank(fromSpecific) >= decisionRank(decision)) decision = fromSpecific;
      }
      if (specific.permissionDecisionReason !== undefined) reason = specific.permissionDecisionReason;
      if (decision === 'deny' && !reason) reason = 'Blocked by hook';
      updatedInput = specific.updatedInput;
      additionalContext = specific.additionalContext;
      break;
    case 'PostToolUse':
      additionalContext = specific.additionalContext;
      if (specific.updatedToolOutput !== undefined || specific.updatedMCPToolOutput !== undefined) {
        hasUpdatedResult = true;
        updatedResult = specific.updatedToolOutput !== undefined ? specific.updatedToolOutput : specific.updatedMCPToolOutput;
      }
      break;
    case 'BeforeInference':
      additionalContext = specific.additionalContext;
      if (specific.llm_request !== undefined) model.llmRequest = specific.llm_request;
      if (specific.llm_response !== undefined) model.llmResponse = specific.llm_response;
      break;
    case 'AfterInference':
      additionalContext = specific.additionalContext;
      if (specific.llm_response !== undefined) model.llmResponse = specific.llm_response;
      break;
    case 'BeforeToolSelection':
      additionalContext = specific.additionalContext;
      if (specific.toolConfig !== undefined) model.toolConfig = specific.toolConfig;
      break;
    case 'PermissionRequest':
      if (specific.decision.behavior === 'allow') {
        decision = 'allow';
        updatedInput = specific.decision.updatedInput;
      } else {
        decision = specific.decision.interrupt ? 'stop' : 'deny';
        reason = specific.decision.message || 'Permission denied by hook';
      }
      break;
    default:
      additionalContext = specific?.additionalContext;
  }

  if (json.continue === false) {
    // continue:false ends the run and takes precedence over any block.
    decision = 'stop';
    reason = json.stopReason || 'Stopped by hook';
  }

  const outcome: { -readonly [K in keyof HookOutcome]: HookOutcome[K] } = { ...model };
  if (decision !== undefined) outcome.decision = decision;
  if (reason !== undefined) outcome.reason = reason;
  if (updatedInput !== undefined) outcome.updatedInput = updatedInput;
  if (hasUpdatedResult) outcome.updatedResult = updatedResult;
  if (additionalContext !== undefined) outcome.additionalContext = additionalContext;
  if (json.systemMessage !== undefined) outcome.systemMessage = json.systemMessage;
  if (json.suppressOutput !== undefined) outcome.suppressOutput = json.suppressOutput;
  return outcome;
}

/** The first lines of stderr, for failure messages (full stderr stays in the raw record). */
function stderrHead(stderr: string): string {
  const lines = stderr.trim().split('\n').slice(0, 5).join('\n');
  return lines.length > 500 ? `${lines.slice(0, 500)}…` : lines;
}

function shortCommand(command: string): string {
  const oneLine = command.trim().replace(/\s+/g, ' ');
  return oneLine.length > 120 ? `${oneLine.slice(0, 120)}…` : oneLine;
}

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, n]) => [n, name]));

function describeFailure(exitCode: number | null, stderr: string, command: string, signal?: string): string {
  const detail = stderrHead(stderr);
  const suffix = detail ? `: ${detail}` : '';
  if (exitCode === 127) return `command not found: ${shortCommand(command)}${suffix}`;
  if (exitCode === 126) return `permission denied (not executable): ${shortCommand(command)}${suffix}`;
  if (exitCode === null) return signal ? `killed by ${signal}${suffix}` : `ended without an exit code${suffix}`;
  // A script run by `sh -c` that dies by a signal shows up as 128+n from the outer shell.
  const viaShell = exitCode > 128 ? SIGNAL_NAMES.get(exitCode - 128) : undefined;
  if (viaShell) return `killed by ${viaShell} (exit code ${exitCode})${suffix}`;
  // Claude Code's wording for non-blocking errors, with the code kept visible.
  return `Failed with non-blocking status code ${exitCode}: ${detail || 'No stderr output'}`;
}
