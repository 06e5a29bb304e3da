import type { HookAction } from './hookAction';
import type { HookCondition } from './hookCondition';
import type { HookEvent } from './hookEvent';
import { isHookEvent } from './hookEvent';
import { HookRegistrationError } from './hookErrors';
import type { HookSource } from '../configFiles/hookSource';
import type { HookMatcher } from './matchers/hookMatcher';
import { MATCH_ALL } from './matchers/hookMatcher';

/** Something to undo a registration with; disposing twice is harmless. */
export interface HookDisposable {
  dispose(): void;
}

/** What a caller gives to register one hook. Omitted fields take the documented defaults. */
export interface HookRegistrationInit {
  /** Unique id; generated (`hook-<n>`) when omitted. Config hooks should pass a stable one. */
  readonly id?: string;
  readonly event: HookEvent;
  /** Compiled matcher; omitted = matches everything. */
  readonly matcher?: HookMatcher;
  /** Higher runs first (docs/hooks.md §4.2); default 0. */
  readonly priority?: number;
  readonly action: HookAction;
  /** Per-hook timeout in ms; default = the action's `defaultTimeoutMs`. */
  readonly timeoutMs?: number;
  /** false = a failure of this hook denies (fail closed); default true (fail open). */
  readonly continueOnFailure?: boolean;
  readonly source: HookSource;
  /** Scope to one subagent type: runs only when the input's `agent_type` equals it. */
  readonly agentType?: string;
  /**
   * Claude Code's `"async": true`: started with the event but not waited for. It cannot
   * decide anything; its additionalContext and systemMessage reach the agent before its next
   * model call (HookRunner.takeBackgroundOutput). Never deduplicated.
   */
  readonly background?: boolean;
  /** Claude Code's `statusMessage`: carried on the run records so the UI can show it while the hook runs. */
  readonly statusMessage?: string;
  /** Claude Code's `if`: the hook runs only when the tool call matches (tested after the matcher). */
  readonly condition?: HookCondition;
  /** Claude Code's `once`: at most one run per session. */
  readonly once?: boolean;
  /** Skill-scoped: runs only in sessions that loaded this skill (HookRunner.activateSkill). */
  readonly skill?: string;
  /**
   * Runs even when a hook before it denied or stopped the event (which otherwise ends the
   * event's remaining hooks): for a hook that must see every occurrence. Its own decision
   * merges as usual, so it can never weaken the deny or stop. Default false.
   */
  readonly runsAfterDecision?: boolean;
}

/** One registered hook, as the runner sees it. Immutable. */
export interface HookRegistration {
  readonly id: string;
  readonly event: HookEvent;
  readonly matcher: HookMatcher;
  readonly priority: number;
  readonly action: HookAction;
  readonly timeoutMs?: number;
  readonly continueOnFailure: boolean;
  readonly source: HookSource;
  readonly agentType?: string;
  /** See {@link HookRegistrationInit.background}. */
  readonly background?: boolean;
  /** See {@link HookRegistrationInit.statusMessage}. */
  readonly statusMessage?: string;
  /** See {@link HookRegistrationInit.condition}. */
  readonly condition?: HookCondition;
  /** See {@link HookRegistrationInit.once}. */
  readonly once?: boolean;
  /** See {@link HookRegistrationInit.skill}. */
  readonly skill?: string;
  /** See {@link HookRegistrationInit.runsAfterDecision}. */
  readonly runsAfterDecision?: boolean;
  /** Set on config-sourced hooks: the generation they were loaded in. */
  readonly configGeneration?: number;
  /** `config` hooks come from setConfigHooks, `code` hooks from register(). */
  readonly origin: 'config' | 'code';
  /** Registration order within the origin (array index for config, global counter for code). */
  readonly sequence: number;
}

const EMPTY: readonly HookRegistration[] = Object.freeze([]);

let codeSequence = 0;

// docs/hooks.md §4.2: priority descending, then registration order. Config hooks and code hooks of
// equal priority interleave as "config first, then code": the config set is one atomic
// block (its order is the settings' order), and code hooks follow in the order they were
// registered. So a user's settings hook at priority 0 runs in the same tier as, and merges
// before, a built-in code hook at priority 0.
function compareRegistrations(a: HookRegistration, b: HookRegistration): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.origin !== b.origin) return a.origin === 'config' ? -1 : 1;
  return a.sequence - b.sequence;
}

/**
 * Every hook, indexed by event. Holds two sets:
 * - code hooks (`register`, undone by `dispose`), from the TypeScript API and built-ins;
 * - the config set (`setConfigHooks`), replaced as a whole by the config loader on every
 *   settings edit.
 * `select(event)` returns an immutable, pre-sorted snapshot: changes build new arrays (copy
 * on write), so a run in flight keeps the registrations it started with.
 */
export class HookRegistry {
  private readonly code = new Map<string, HookRegistration>();
  private config: readonly HookRegistration[] = EMPTY;
  private generation: number | undefined;
  private byEvent = new Map<HookEvent, readonly HookRegistration[]>();
  private readonly listeners = new Set<() => void>();

  /** The generation of the current config set (undefined before the first setConfigHooks). */
  get configGeneration(): number | undefined {
    return this.generation;
  }

  /**
   * Registers a code hook. Throws HookRegistrationError for an unknown event, a non-finite
   * priority, a non-positive timeout or a duplicate id. Returns its undo.
   */
  register(init: HookRegistrationInit): HookDisposable {
    const registration = this.toRegistration(init, 'code', ++codeSequence, undefined);
    if (this.code.has(registration.id) || this.config.some((r) => r.id === registration.id)) {
      throw new HookRegistrationError('duplicateId', `A hook with id "${registration.id}" is already registered.`);
    }
    this.code.set(registration.id, registration);
    this.rebuild([registration.event]);
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        if (this.code.get(registration.id) === registration && this.code.delete(registration.id)) this.rebuild([registration.event]);
      },
    };
  }

  /**
   * Replaces the whole config set in one step (the config loader calls this on every settings
   * edit). Order within `inits` is their registration order. A call with a generation older
   * than the current one is a stale load and is ignored (returns false). Every init is
   * validated before anything changes: on a HookRegistrationError the old set stays.
   */
  setConfigHooks(generation: number, inits: readonly HookRegistrationInit[]): boolean {
    if (this.generation !== undefined && generation < this.generation) return false;
    const ids = new Set<string>();
    const next = inits.map((init, index) => {
      const registration = this.toRegistration(init, 'config', index, generation);
      if (ids.has(registration.id) || this.code.has(registration.id)) {
        throw new HookRegistrationError('duplicateId', `A hook with id "${registration.id}" is already registered.`);
      }
      ids.add(registration.id);
      return Object.freeze(registration);
    });
    const touched = new Set<HookEvent>();
    for (const r of this.config) touched.add(r.event);
    for (const r of next) touched.add(r.event);
    this.config = Object.freeze(next);
    this.generation = generation;
    this.rebuild(touched);
    return true;
  }

  /** The registrations of `event`, sorted for running (priority desc, config then code, registration order). */
  select(event: HookEvent): readonly HookRegistration[] {
    return this.byEvent.get(event) ?? EMPTY;
  }

  /** All registrations, config set first, then code hooks in registration order. */
  list(): readonly HookRegistration[] {
    return [...this.config, ...this.code.values()];
  }

  /** Called after every change (for views listing the configured hooks). */
  onDidChange(listener: () => void): HookDisposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  private toRegistration(init: HookRegistrationInit, origin: 'config' | 'code', sequence: number, configGeneration: number | undefined): HookRegistration {
    if (!isHookEvent(init.event)) throw new HookRegistrationError('unknownEvent', `Unknown hook event "${String(init.event)}".`);
    const priority = init.priority ?? 0;
    if (typeof priority !== 'number' || !Number.isFinite(priority)) {
      throw new HookRegistrationError('invalidPriority', `Hook priority must be a finite number, got ${String(priority)}.`);
    }
    if (init.timeoutMs !== undefined && (typeof init.timeoutMs !== 'number' || !(init.timeoutMs > 0) || !Number.isFinite(init.timeoutMs))) {
      throw new HookRegistrationError('invalidTimeout', `Hook timeout must be a positive number of milliseconds, got ${String(init.timeoutMs)}.`);
    }
    if (!init.action || typeof init.action.run !== 'function') {
      throw new HookRegistrationError('invalidAction', 'A hook registration needs an action with a run() method.');
    }
    const registration: HookRegistration = {
      id: init.id ?? `hook-${origin === 'code' ? sequence : `g${configGeneration ?? 0}-${sequence}`}`,
      event: init.event,
      matcher: init.matcher ?? MATCH_ALL,
      priority,
      action: init.action,
      ...(init.timeoutMs !== undefined ? { timeoutMs: init.timeoutMs } : {}),
      continueOnFailure: init.continueOnFailure ?? true,
      source: init.source,
      ...(init.agentType !== undefined ? { agentType: init.agentType } : {}),
      ...(init.background === true ? { background: true } : {}),
      ...(init.statusMessage !== undefined ? { statusMessage: init.statusMessage } : {}),
      ...(init.condition !== undefined ? { condition: init.condition } : {}),
      ...(init.once === true ? { once: true } : {}),
      ...(init.skill !== undefined ? { skill: init.skill } : {}),
      ...(init.runsAfterDecision === true ? { runsAfterDecision: true } : {}),
      ...(configGeneration !== undefined ? { configGeneration } : {}),
      origin,
      sequence,
    };
    return registration;
  }

  private rebuild(events: Iterable<HookEvent>): void {
    const next = new Map(this.byEvent);
    for (const event of events) {
      const list: HookRegistration[] = [];
      for (const r of this.config) if (r.event === event) list.push(r);
      for (const r of this.code.values()) if (r.event === event) list.push(r);
      if (list.length === 0) next.delete(event);
      else next.set(event, Object.freeze(list.sort(compareRegistrations)));
    }
    this.byEvent = next;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's bug must not undo or break a registration.
      }
    }
  }
}
