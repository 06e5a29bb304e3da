import type { HookEventResult, PermissionAnswer, PermissionProvider, PermissionRequest } from '../hooks/hookRunTypes';
import type { HookDispatcher } from './hookDispatcher';
import type { HookInputs } from './hookInputs';
import type { PolicyVerdict } from './permissionMode';

/** How an ask ended, with who settled it. */
export interface SettledAsk extends PermissionAnswer {
  readonly decidedBy: NonNullable<PermissionAnswer['decidedBy']>;
  /** A PermissionRequest hook's rewrite of the tool input, applied only with its allow. */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
}

/**
 * The path from "someone must decide" to a decision (issue 6 §3):
 * deny rules first (they beat even a hook's ask) → PermissionRequest hooks → a
 * `permission_prompt` Notification → the PermissionProvider (a modal in VS Code) or, with
 * none, the `askFallback` (default deny).
 *
 * For a hook's `ask` a PermissionRequest hook may deny but never allow: the hook asked for
 * a person, and nothing bypasses that. For a rule/mode ask it may do either.
 */
export class PermissionFlow {
  constructor(
    private readonly o: {
      readonly hooks: HookDispatcher;
      readonly inputs: HookInputs;
      readonly provider?: PermissionProvider;
      readonly askFallback: 'allow' | 'deny';
      /** Keeps fire-and-forget work (Notification hooks) awaited before the run ends. */
      readonly track: (work: Promise<unknown>) => void;
    },
  ) {}

  /** A provider to hand the HookRunner for one tool call's PreToolUse, honouring the policy verdict. */
  providerFor(policy: PolicyVerdict): PermissionProvider {
    return { requestPermission: (request, signal) => this.settle(request, policy, signal) };
  }

  /** Settles one ask. Never throws; an abort while waiting is a deny. */
  async settle(request: PermissionRequest, policy: PolicyVerdict, signal: AbortSignal): Promise<SettledAsk> {
    if (policy.behavior === 'deny') return { decision: 'deny', decidedBy: policy.by === 'rule' ? 'rule' : 'mode', reason: policy.reason };
    if (signal.aborted) return { decision: 'deny', decidedBy: 'user', reason: 'cancelled' };

    const toolInput = request.toolInput ?? {};
    let hookResult: HookEventResult | undefined;
    if (request.toolName !== undefined && (this.o.hooks.hasHooks?.('PermissionRequest') ?? true)) {
      hookResult = await this.o.hooks.run('PermissionRequest', this.o.inputs.permissionRequest(request.toolName, toolInput), {
        signal,
        // A PermissionRequest hook that itself says ask goes to the same person.
        permissionProvider: { requestPermission: (r, s) => this.askPerson(r, s) },
      });
      if (hookResult.asked && (hookResult.decision === 'allow' || hookResult.decision === 'deny')) {
        return { decision: hookResult.decision, decidedBy: 'user', ...(hookResult.reason ? { reason: hookResult.reason } : {}) };
      }
      if (hookResult.decision === 'deny' || hookResult.decision === 'stop') {
        return { decision: 'deny', decidedBy: 'hook', reason: hookResult.reason ?? 'Permission denied by hook' };
      }
      if (hookResult.decision === 'allow' && request.kind === 'rule') {
        return { decision: 'allow', decidedBy: 'hook', reason: hookResult.reason ?? 'Permission granted by hook', ...(hookResult.updatedInput ? { updatedInput: hookResult.updatedInput } : {}) };
      }
    }
    return this.askPerson(request, signal);
  }

  private async askPerson(request: PermissionRequest, signal: AbortSignal): Promise<SettledAsk> {
    if (this.o.hooks.hasHooks?.('Notification') ?? true) {
      const message = `Hookwise needs your permission to use ${request.toolName ?? request.event}`;
      this.o.track(this.o.hooks.run('Notification', this.o.inputs.notification(message, 'permission_prompt'), { signal }));
    }
    const provider = this.o.provider;
    if (!provider) return { decision: this.o.askFallback, decidedBy: 'fallback', reason: `no one to ask (headless): askFallback is ${this.o.askFallback}` };
    try {
      const answer = await provider.requestPermission(request, signal);
      return { ...answer, decidedBy: answer.decidedBy ?? 'user' };
    } catch (error) {
      return { decision: 'deny', decidedBy: 'fallback', reason: `the approval prompt failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}
