import type { HookActionKind, HookRawOutput } from './hookAction';
import type { HookEvent } from './hookEvent';
import type { HookFailureReason } from './hookErrors';
import type { HookDecision, HookOutcome, InjectedMessage } from './hookOutcome';
import type { HookSource } from '../configFiles/hookSource';
import type { HookToolConfig, LlmRequestPatch, LlmResponse } from './inputs/llmShapes';

/** One model-level hook's change, in merge order: what the agent applies to the call. */
export interface ModelEdit {
  readonly hookId: string;
  readonly hookLabel: string;
  readonly llmRequest?: LlmRequestPatch;
  readonly llmResponse?: LlmResponse;
  readonly toolConfig?: HookToolConfig;
}

/**
 * The public shapes of one hook execution and of one event's merged result. The runner
 * produces them; the tree view, chat, log, transcript and CLI consume them. Everything
 * here is plain data (JSON-serializable) so it can cross to the webview and into JSONL.
 */

/** Status of one hook execution. `asked` = it returned ask and a person/fallback decided. */
export type HookRunStatus = 'running' | 'ok' | 'blocked' | 'asked' | 'failed' | 'timed-out' | 'cancelled';

/** Who settled an `ask`: the kind of a {@link DecidedBy}. */
export type PermissionDecider = DecidedBy['kind'];

/** Identity of the agent an event belongs to: every hook input and record carries it. */
export interface AgentRef {
  readonly agentId: string;
  /** null for the main agent. */
  readonly parentAgentId: string | null;
  /** `main` for the main agent, else the subagent type (`general-purpose`, `Explore`, a file agent). */
  readonly agentType: string;
}

/** One hook execution, reported when it starts (status `running`) and again when it ends. */
export interface HookRunRecord extends AgentRef {
  /** Unique per execution. */
  readonly runId: string;
  /** One event occurrence (one `HookRunner.run` call); groups executions in the tree. */
  readonly occurrenceId: string;
  readonly sessionId: string;
  readonly event: HookEvent;
  /** The value the matcher was tested against, e.g. `Bash`, `startup`. */
  readonly matchValue?: string;
  /** Registration id of the hook. */
  readonly hookId: string;
  readonly hookLabel: string;
  readonly actionKind: HookActionKind;
  readonly source: HookSource;
  /** Config generation the hook came from (config-sourced hooks only). */
  readonly configGeneration?: number;
  readonly input: Readonly<Record<string, unknown>>;
  /** Epoch ms. */
  readonly startedAt: number;
  readonly status: HookRunStatus;
  readonly durationMs?: number;
  readonly outcome?: HookOutcome;
  readonly raw?: HookRawOutput;
  /** Failure message a user understands. */
  readonly error?: string;
  /** For failures: what kind (added by the hook engine; optional, so older producers stay valid). */
  readonly failureReason?: HookFailureReason;
  /** What a model-level hook changed, e.g. `messages 42 → 12`, `answered without the model`, `reply redacted`. */
  readonly effect?: string;
  /** Problems that did not fail the run, e.g. unknown fields in the hook's JSON output. */
  readonly warnings?: readonly string[];
  /** The handler's `statusMessage`: what the UI shows while the hook runs. */
  readonly statusMessage?: string;
  /** For status `asked`: how the ask was settled. */
  /** `cancelled`: Stop settled the ask before anyone answered it (its decision is then deny). */
  readonly permission?: { readonly decision: 'allow' | 'deny'; readonly decidedBy: PermissionDecider; readonly reason?: string; readonly cancelled?: true };
}

/** Receives every execution as it starts and ends. Observers must not throw; the runner guards anyway. */
export interface HookRunObserver {
  onHookStarted?(record: HookRunRecord): void;
  onHookFinished?(record: HookRunRecord): void;
  /** An `ask` was settled; the record has `permission` set. */
  onAskResolved?(record: HookRunRecord): void;
}

/** What the PermissionProvider is asked. */
export interface PermissionRequest extends AgentRef {
  readonly sessionId: string;
  readonly event: HookEvent;
  readonly toolName?: string | undefined;
  readonly toolInput?: Readonly<Record<string, unknown>> | undefined;
  /** Why a person is asked (the hook's reason, or the rule that asked). */
  readonly reason: string;
  /** `hook`: a hook said ask (Allow/Deny only). `rule`: a permission rule or the mode asked. */
  readonly kind: 'hook' | 'rule';
  /** The hooks that asked, for the popup's detail. */
  readonly askedBy: readonly { readonly hookLabel: string; readonly source: HookSource }[];
  /** For rule asks: the rule "Always Allow" would write, e.g. `Bash(npm test:*)`. */
  readonly suggestedRule?: string | undefined;
}

/** The answer. `scope` only matters for rule asks. */
export interface PermissionAnswer {
  readonly decision: 'allow' | 'deny';
  readonly scope?: 'once' | 'session' | 'always';
  /** With scope session/always: the rule the person chose (e.g. `Edit(src/**)`); absent = the request's suggestedRule. */
  readonly rule?: string;
  readonly reason?: string;
  readonly decidedBy?: PermissionDecider;
}

/** The port that turns `ask` into a person's decision (a modal in VS Code). Must settle when `signal` aborts (as deny). */
export interface PermissionProvider {
  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer>;
}

/**
 * Who decided, end to end (hook → gate → events → chat, CLI, transcript): a hook with its
 * source, a permission rule (`detail` is the rule, `file` where it was written), the mode,
 * the person (`user`, `detail` = what they said), the ask fallback (`detail` = why), or
 * nobody in particular (`default`: a read-only tool needs no approval).
 */
export type DecidedBy =
  | { readonly kind: 'hook'; readonly hookId: string; readonly hookLabel: string; readonly source: HookSource; readonly configGeneration?: number }
  | { readonly kind: 'rule'; readonly detail?: string; readonly file?: string }
  | { readonly kind: 'user' | 'fallback' | 'mode' | 'default'; readonly detail?: string };

/**
 * The merged result of one event. `decision: 'ask'` is data: the HookRunner never asks
 * anyone; the agent's permission gate (src/agent/permissions) settles it and returns the
 * result with `allow` or `deny` and `asked: true`.
 */
export interface HookEventResult {
  readonly event: HookEvent;
  readonly occurrenceId: string;
  readonly decision?: HookDecision;
  readonly reason?: string;
  readonly decidedBy?: DecidedBy;
  /** True once the gate settled this result's ask (a person, a hook or the fallback answered). */
  readonly asked: boolean;
  /** With `decision: 'ask'`: the records of the hooks that asked, in registration order. */
  readonly askedBy?: readonly HookRunRecord[];
  /** Merged tool input (per top-level key, later registration wins), already validated. */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  /** Set when some hook replaced the result (`hasUpdatedResult` tells undefined apart). */
  readonly hasUpdatedResult: boolean;
  readonly updatedResult?: unknown;
  readonly additionalContext: readonly string[];
  /** Plain stdout of successful command hooks, in registration order (SessionStart/UserPromptSubmit context, PreCompact instructions). */
  readonly plainOutputs: readonly string[];
  readonly messagesToInject: readonly InjectedMessage[];
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly systemMessages: readonly string[];
  readonly suppressOutput: boolean;
  /** Model-level hooks' request, reply and tool-choice changes, in merge order (absent = none). */
  readonly modelEdits?: readonly ModelEdit[];
  /** Hooks whose matcher matched but that did not run (`if` false, `once` spent), with why. */
  readonly skipped?: readonly { readonly hookId: string; readonly hookLabel: string; readonly reason: string }[];
  /** Every execution of this occurrence, in registration order. */
  readonly records: readonly HookRunRecord[];
  /** The failed / timed-out ones (fail-open unless continueOnFailure is false). */
  readonly failures: readonly HookRunRecord[];
  /**
   * True when the run's AbortSignal fired before every selected hook finished: the result is
   * partial and must not be read as an approval. (Added by the hook engine; optional.)
   */
  readonly cancelled?: boolean;
}

/** What one finished background (`async`) hook contributed for its session's next model call. */
export interface BackgroundHookOutput {
  readonly sessionId: string;
  readonly event: HookEvent;
  readonly hookLabel: string;
  readonly additionalContext?: string;
  readonly systemMessage?: string;
}
