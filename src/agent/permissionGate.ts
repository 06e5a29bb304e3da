import type { HookSource } from '../configFiles/hookSource';
import type { HookEvent } from '../hooks/hookEvent';
import { TOOL_EVENTS } from '../hooks/hookEvent';
import type { AgentRef, DecidedBy, HookEventResult, PermissionAnswer, PermissionProvider, PermissionRequest } from '../hooks/hookRunTypes';
import { withAskAnswer } from '../hooks/hookRunRecords';
import { raceAbort } from '../shared/raceAbort';
import type { DispatchOptions, HookDispatcher } from './hookDispatcher';
import type { HookInputs } from './hookInputs';
import { evaluatePolicy } from '../permissions/permissionMode';
import type { PermissionRules, PolicyVerdict } from '../permissions/permissionMode';
import type { RunContext } from './runContext';
import { describeThrown } from '../shared/describeThrown';

type Input = Readonly<Record<string, unknown>>;

/**
 * Events without decision control (Claude Code's observation events, and Hookwise's that only
 * report): an `ask` from their hooks decides nothing, so it is put to nobody. SessionStart and
 * SessionEnd stay askable: a hook may want a person to look before a session opens or closes.
 */
const OBSERVATION_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  'Notification',
  'StopFailure',
  'PostCompact',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'ExecutionEnd',
  'AgentFailed',
]);

/**
 * Who answers an ask that reaches a person: the provider (a modal in VS Code, the terminal in
 * the CLI) or, with none, `askFallback` (default deny: headless, nobody can be asked).
 */
export interface AskPolicy {
  readonly provider?: PermissionProvider;
  readonly askFallback: 'allow' | 'deny';
}

/** The ask policy of a runtime: `askFallback` defaults to deny, so nothing unanswerable is allowed by accident. */
export function askPolicy(provider: PermissionProvider | undefined, askFallback: 'allow' | 'deny' | undefined): AskPolicy {
  return provider ? { provider, askFallback: askFallback ?? 'deny' } : { askFallback: askFallback ?? 'deny' };
}

/** Rules granted with "Allow for This Session". */
export type SessionRules = PermissionRules & { grant(rule: string, source?: HookSource): void };

/** What one agent's gate is built from: the run context (rules, mode, asks) and the agent's own parts. */
export interface PermissionGateOptions {
  readonly ctx: RunContext;
  readonly agent: AgentRef;
  /** The agent's dispatcher (the raw HookRunner behind it): returns `ask` as data. */
  readonly hooks: HookDispatcher;
  readonly inputs: HookInputs;
  /** Keeps fire-and-forget work (Notification hooks) awaited before the run ends. */
  readonly track: (work: Promise<unknown>) => void;
}

/** One question for the gate. */
export interface AskQuestion {
  readonly event: HookEvent;
  readonly toolName?: string | undefined;
  readonly toolInput?: Input | undefined;
  /** A tool call's rule/mode verdict: its deny beats every ask. */
  readonly policy?: PolicyVerdict | undefined;
  /** The event result whose hooks asked; absent when a rule, the mode or a protected write asks. */
  readonly hookAsk?: HookEventResult;
}

/** The tool call an ask is about, and its rule/mode verdict. */
export type AskedTool = Pick<AskQuestion, 'toolName' | 'toolInput' | 'policy'>;

/** Options of one {@link PermissionGate.run}: the runner's, and what an ask is about. */
export interface GateRunOptions extends Pick<DispatchOptions, 'env' | 'validateUpdatedInput'> {
  /**
   * Which tool call (with which policy) an ask is about; undefined leaves the ask unsettled
   * (a call the person stopped). Default: the tool a tool event's input names, with the input
   * it would run with.
   */
  readonly askAbout?: (result: HookEventResult) => AskedTool | undefined;
}

/** How the gate settled an ask. */
export interface GateAnswer {
  readonly decision: 'allow' | 'deny';
  readonly decidedBy: DecidedBy;
  /** The answer's reason (the person's words, the hook's, the rule's, or why nobody was asked). */
  readonly reason?: string;
  /** Only for rule asks answered by a person: remember the rule for the session or for good. */
  readonly scope?: PermissionAnswer['scope'];
  /** With `scope`: the rule the person chose, when not the suggested one. */
  readonly rule?: string;
  /** A PermissionRequest hook's rewrite of the tool input, applied only with its allow. */
  readonly updatedInput?: Input;
}

/**
 * The one place an `ask` becomes a decision, for every event. In order: deny rules and the
 * mode (a tool call's policy verdict; they beat even a hook's ask) → PermissionRequest hooks
 * (for a hook's ask and in Restricted Mode they may deny but never allow: a person is wanted) → a
 * `permission_prompt` Notification → the PermissionProvider → `askFallback`. Protected writes
 * and allow rules are part of the policy verdict (permissionMode.ts): a protected write asks
 * past allow rules, grants, modes and a PreToolUse hook's allow. Never throws; an abort while
 * waiting is a deny.
 */
export class PermissionGate {
  constructor(private readonly o: PermissionGateOptions) {}

  /** The gate of one agent in a run context. `hooks` defaults to the context's; `track` to fire-and-forget. */
  static forAgent(
    ctx: RunContext,
    agent: AgentRef,
    inputs: HookInputs,
    hooks: HookDispatcher = ctx.hooks,
    track: (work: Promise<unknown>) => void = ignore,
  ): PermissionGate {
    return new PermissionGate({ ctx, agent, hooks, inputs, track });
  }

  /** False only when no registration listens to `event` (lets a caller skip building its input). */
  hasHooks(event: HookEvent): boolean {
    return this.o.hooks.hasHooks?.(event) !== false;
  }

  /** The rule/mode verdict for a tool call with this input (rewrites are judged again). */
  policy(toolName: string, input: Input, readOnly: boolean): PolicyVerdict {
    const { permissionMode: mode, cwd, rules, sessionRules, restricted } = this.o.ctx;
    return evaluatePolicy({ toolName, input, readOnly, mode, cwd, rules, sessionRules, restricted });
  }

  /** Who decided a policy deny: the rule with its file, or the mode. */
  deniedBy(policy: PolicyVerdict & { readonly behavior: 'deny' }): DecidedBy {
    if (policy.by === 'mode') return { kind: 'mode', detail: this.o.ctx.permissionMode };
    return policy.file ? { kind: 'rule', detail: policy.rule ?? policy.reason, file: policy.file } : { kind: 'rule', detail: policy.rule ?? policy.reason };
  }

  /**
   * Who allowed a call the policy let through without asking: the allow rule (or session
   * grant) with where it was written, the mode, or nobody in particular (a read-only tool).
   */
  allowedBy(policy: PolicyVerdict & { readonly behavior: 'allow' }): DecidedBy {
    if (policy.by === 'mode') return { kind: 'mode', detail: this.o.ctx.permissionMode };
    if (policy.by === 'readOnly') return { kind: 'default', detail: policy.reason };
    const rule = policy.rule ?? policy.reason;
    return policy.file ? { kind: 'rule', detail: rule, file: policy.file } : { kind: 'rule', detail: rule };
  }

  /** Records a rule "Allow for This Session" / "Always Allow" granted. */
  grant(rule: string): void {
    this.o.ctx.sessionRules?.grant(rule);
  }

  /**
   * The one route of an agent's events to the hook runner: runs `event`'s hooks through this
   * gate's dispatcher and settles an ask in the result (PermissionRequest hooks, the
   * Notification, the person, the fallback; the answer recorded on the result). What comes back
   * never says ask, unless `options.askAbout` leaves it unsettled or the event has no decision
   * control (an observation event's ask is put to nobody).
   */
  async run(event: HookEvent, input: Input, signal?: AbortSignal, options: GateRunOptions = {}): Promise<HookEventResult> {
    const { askAbout, ...dispatch } = options;
    const result = await this.o.hooks.run(event, input, { ...(signal ? { signal } : {}), ...dispatch });
    if (result.decision !== 'ask' || OBSERVATION_EVENTS.has(event)) return result;
    const tool = askAbout ? askAbout(result) : toolAsked(event, input, result);
    if (tool === undefined) return result;
    return this.settle(result, tool, signal ?? new AbortController().signal);
  }

  /** Settles an event result that says ask; the result is returned with allow/deny and `asked: true`. */
  private async settle(result: HookEventResult, tool: AskedTool, signal: AbortSignal): Promise<HookEventResult> {
    if (result.decision !== 'ask') return result;
    const answer = await this.decide({ event: result.event, hookAsk: result, ...tool }, signal);
    const asked = askReason(result);
    // A person or the fallback answered the hook's question: the reason stays the hook's (what
    // the model and the card show); how it was answered is the decider's.
    let reason = answer.reason ?? asked;
    if (answer.decidedBy.kind === 'user' || (answer.decidedBy.kind === 'fallback' && this.o.ctx.asks.provider === undefined)) reason = asked;
    else if (answer.decidedBy.kind === 'fallback') reason = `${asked}\n(${answer.reason ?? 'denied'})`;
    const settled = {
      decision: answer.decision,
      decidedBy: answer.decidedBy,
      reason,
      detail: answer.decidedBy.kind === 'fallback' ? reason : (answer.reason ?? asked),
      cancelled: answer.decision === 'deny' && signal.aborted,
    };
    return this.o.hooks.recordAskAnswer?.(result, settled) ?? withAskAnswer(result, settled);
  }

  /** Decides one ask (see the class comment for the order). */
  async decide(q: AskQuestion, signal: AbortSignal): Promise<GateAnswer> {
    const policy = q.policy;
    if (policy?.behavior === 'deny') return { decision: 'deny', decidedBy: this.deniedBy(policy), reason: policy.reason };
    if (signal.aborted) return cancelled();
    const byHook = q.hookAsk !== undefined;
    const request: PermissionRequest = {
      ...this.o.agent,
      sessionId: this.o.ctx.sessionId,
      event: q.event,
      toolName: q.toolName,
      toolInput: q.toolInput,
      reason: q.hookAsk ? askReason(q.hookAsk) : (policy?.reason ?? `${q.event} needs your approval`),
      kind: byHook ? 'hook' : 'rule',
      askedBy: (q.hookAsk?.askedBy ?? []).map((r) => ({ hookLabel: r.hookLabel, source: r.source })),
      suggestedRule: policy?.behavior === 'ask' ? policy.suggestedRule : undefined,
    };
    if (this.o.hooks.hasHooks?.('PermissionRequest') ?? true) {
      // A non-tool ask (UserPromptSubmit, Stop…) is offered under its event's name.
      const input = this.o.inputs.permissionRequest(q.toolName ?? q.event, (q.toolInput ?? {}) as Record<string, unknown>);
      const hooked = await this.o.hooks.run('PermissionRequest', input, { signal });
      if (hooked.decision === 'ask') {
        // A PermissionRequest hook that itself asks goes to the same person.
        const answer = await this.askPerson(request, signal);
        this.o.hooks.recordAskAnswer?.(hooked, {
          decision: answer.decision,
          decidedBy: answer.decidedBy,
          reason: answer.reason ?? request.reason,
          ...(answer.reason ? { detail: answer.reason } : {}),
          cancelled: answer.decision === 'deny' && signal.aborted,
        });
        return answer;
      }
      if (hooked.decision === 'deny' || hooked.decision === 'stop') {
        return { decision: 'deny', decidedBy: hooked.decidedBy ?? { kind: 'fallback' }, reason: hooked.reason ?? 'Permission denied by hook' };
      }
      // Restricted Mode wants a person for every call: a PermissionRequest hook may deny, never allow.
      if (hooked.decision === 'allow' && !byHook && policy?.by !== 'restricted') {
        return {
          decision: 'allow',
          decidedBy: hooked.decidedBy ?? { kind: 'fallback' },
          reason: hooked.reason ?? 'Permission granted by hook',
          ...(hooked.updatedInput ? { updatedInput: hooked.updatedInput } : {}),
        };
      }
    }
    return this.askPerson(request, signal);
  }

  /**
   * Asks the person directly, past PermissionRequest hooks (the answer is the user's alone: the
   * self-protection backstop asks whether to keep a change to the agent's own configuration);
   * with nobody to ask, `askFallback` answers. Allow / Deny only.
   */
  askUser(
    q: { readonly event: HookEvent; readonly toolName?: string; readonly toolInput?: Input; readonly reason: string },
    signal: AbortSignal,
  ): Promise<GateAnswer> {
    return this.askPerson(
      {
        ...this.o.agent,
        sessionId: this.o.ctx.sessionId,
        event: q.event,
        toolName: q.toolName,
        toolInput: q.toolInput,
        reason: q.reason,
        kind: 'rule',
        askedBy: [],
      },
      signal,
    );
  }

  private async askPerson(request: PermissionRequest, signal: AbortSignal): Promise<GateAnswer> {
    if (this.o.hooks.hasHooks?.('Notification') ?? true) {
      const message = `Hookwise needs your permission to use ${request.toolName ?? request.event}`;
      this.o.track(this.o.hooks.run('Notification', this.o.inputs.notification(message, 'permission_prompt'), { signal }));
    }
    const { provider, askFallback } = this.o.ctx.asks;
    if (!provider)
      return {
        decision: askFallback,
        decidedBy: { kind: 'fallback', detail: `no permission provider; askFallback: ${askFallback}` },
        reason: `no one to ask (headless): askFallback is ${askFallback}`,
      };
    if (signal.aborted) return cancelled();
    try {
      const answer = await raceAbort(provider.requestPermission(request, signal), signal);
      if (answer?.decision !== 'allow' && answer?.decision !== 'deny') {
        return {
          decision: 'deny',
          decidedBy: { kind: 'fallback', detail: 'invalid permission answer' },
          reason: 'the permission provider gave no allow/deny answer; denied',
        };
      }
      const by = answer.decidedBy ?? 'user';
      const decidedBy: DecidedBy = by === 'hook' || by === 'user' ? { kind: 'user', ...(answer.reason ? { detail: answer.reason } : {}) } : { kind: by };
      return {
        decision: answer.decision,
        decidedBy,
        ...(answer.reason ? { reason: answer.reason } : {}),
        ...(answer.scope ? { scope: answer.scope } : {}),
        ...(answer.scope && answer.rule ? { rule: answer.rule } : {}),
      };
    } catch (thrown) {
      // A Stop while the question is open settles it as cancelled, whatever the provider did.
      if (signal.aborted) return cancelled();
      const error = describeThrown(thrown);
      return {
        decision: 'deny',
        decidedBy: { kind: 'fallback', detail: `permission provider failed: ${error}` },
        reason: `the approval prompt failed: ${error}`,
      };
    }
  }
}

function ignore(work: Promise<unknown>): void {
  void work.catch(() => undefined);
}

/** A tool event's ask names the tool and the input it would run with (a hook's rewrite included). */
function toolAsked(event: HookEvent, input: Input, result: HookEventResult): AskedTool {
  const toolName = TOOL_EVENTS.has(event) && typeof input['tool_name'] === 'string' ? input['tool_name'] : undefined;
  const toolInput = toolName === undefined ? undefined : (result.updatedInput ?? (input['tool_input'] as Input | undefined));
  return { toolName, toolInput };
}

function cancelled(): GateAnswer {
  return { decision: 'deny', decidedBy: { kind: 'fallback', detail: 'cancelled' }, reason: 'cancelled' };
}

/** The asking hooks' reasons, one a line. */
function askReason(result: HookEventResult): string {
  const askers = result.askedBy ?? result.records.filter((r) => r.outcome?.decision === 'ask');
  return askers.map((r) => r.outcome?.reason ?? `${r.hookLabel} asked`).join('\n') || result.reason || `${result.event} hook asked`;
}
