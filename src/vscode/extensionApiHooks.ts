import { HookRegistrationError } from '../hooks/hookErrors';
import type { HookConfig } from '../hooks/config/hookConfigLoader';
import type { HookDisposable, HookRegistrationInit, HookRegistry } from '../hooks/hookRegistry';
import type { HookSource } from '../configFiles/hookSource';
import { createHooksApi, type HooksApi } from '../hooks/hooksApi';

/** Source label of hooks registered through the deprecated `api.hooks`, whose caller is not known. */
export const UNKNOWN_EXTENSION_LABEL = 'extension (unknown)';

/** The source of hooks another extension registers through the API: `extension <publisher.name>`. */
export function extensionApiSource(extensionId: string): Extract<HookSource, { kind: 'code' }> {
  return { kind: 'code', label: `extension ${extensionId}` };
}

/** True for the source of a hook another extension registered through the API (its switch id is the label). */
export function isExtensionApiSource(source: HookSource): boolean {
  return source.kind === 'code' && source.label.startsWith('extension ');
}

/** What of the hook configuration decides whether API hooks run. */
export type ExtensionHookPolicy = Pick<HookConfig, 'disabled' | 'disabledHookIds' | 'managedOnly'>;

interface Entry {
  readonly init: HookRegistrationInit;
  /** The switch ids that turn this hook off: the extension's label, and `label › id` when it has an id. */
  readonly switchIds: readonly string[];
  live: HookDisposable | undefined;
}

/**
 * Hooks other VS Code extensions register in process, labelled with their extension id and
 * governed like configured hooks: `hookwise.hooks.disabled` switches them off (by
 * `extension <id>` for all of an extension's hooks, or `extension <id> › <hook id>` for one),
 * and `disableAllHooks` or a managed `allowManagedHooksOnly` turn them off. A hook that may not
 * run is kept here, not in the registry, so it costs the runner nothing and never shows as a run;
 * every new configuration re-decides. Until the first configuration is known nothing is
 * registered (fail closed: a managed policy may forbid them).
 */
export class ExtensionApiHooks implements HookDisposable {
  private readonly entries = new Set<Entry>();
  private policy: ExtensionHookPolicy | undefined;

  constructor(private readonly registry: Pick<HookRegistry, 'register'>) {}

  /**
   * The hooks API for one caller. Every hook registered through it carries `source`; an `id`
   * given in the options becomes `<label> › <id>` (unique per extension, and its switch id).
   */
  forSource(source: Extract<HookSource, { kind: 'code' }>, onRegister?: () => void): HooksApi {
    const register = (init: HookRegistrationInit): HookDisposable => {
      onRegister?.();
      return this.add({ ...init, source }, source.label);
    };
    return createHooksApi({ register }, { source });
  }

  /** Applies a new hook configuration: registers the hooks it allows and removes the others. */
  applyConfig(policy: ExtensionHookPolicy): void {
    this.policy = policy;
    for (const entry of this.entries) this.sync(entry);
  }

  /** Every hook registered through the API: its switch id, event, label and why it is off (Show Effective Hooks). */
  list(): { source: string; event: string; label: string; blockedBy?: string }[] {
    return [...this.entries].map((e) => {
      const blockedBy = this.blockedBy(e.switchIds);
      // The most precise switch id: what `hookwise.hooks.disabled` names it by.
      const source = e.switchIds[e.switchIds.length - 1] ?? '';
      return { source, event: e.init.event, label: e.init.action.label, ...(blockedBy !== undefined ? { blockedBy } : {}) };
    });
  }

  /** Removes every hook registered through this object (Hookwise deactivating). */
  dispose(): void {
    for (const entry of this.entries) entry.live?.dispose();
    this.entries.clear();
  }

  /** Why `switchIds`' hook may not run now, or undefined when it may. */
  blockedBy(switchIds: readonly string[]): string | undefined {
    const p = this.policy;
    if (p === undefined) return 'the hook configuration has not loaded yet';
    if (p.managedOnly !== undefined) return `the ${p.managedOnly.file} allows only its own hooks (allowManagedHooksOnly)`;
    if (p.disabled) return 'hooks are turned off (disableAllHooks or hookwise.hooks.enabled)';
    if (p.disabledHookIds !== undefined && switchIds.some((id) => p.disabledHookIds?.has(id))) return 'switched off by hookwise.hooks.disabled';
    return undefined;
  }

  private add(init: HookRegistrationInit, label: string): HookDisposable {
    const id = init.id !== undefined ? `${label} › ${init.id}` : undefined;
    // The registry cannot see a hook that is off right now: ids are checked here too.
    if (id !== undefined && [...this.entries].some((e) => e.init.id === id))
      throw new HookRegistrationError('duplicateId', `A hook with id "${id}" is already registered.`);
    const entry: Entry = { init: id !== undefined ? { ...init, id } : init, switchIds: id !== undefined ? [label, id] : [label], live: undefined };
    // Registered once even when it may not run yet, so a bad registration (unknown event,
    // duplicate id, bad timeout) throws to its caller now rather than at the next config change.
    entry.live = this.registry.register(entry.init);
    if (this.blockedBy(entry.switchIds) !== undefined) {
      entry.live.dispose();
      entry.live = undefined;
    }
    this.entries.add(entry);
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        this.entries.delete(entry);
        entry.live?.dispose();
        entry.live = undefined;
      },
    };
  }

  private sync(entry: Entry): void {
    const allowed = this.blockedBy(entry.switchIds) === undefined;
    if (allowed && entry.live === undefined) {
      try {
        entry.live = this.registry.register(entry.init);
      } catch {
        // Its id was taken meanwhile (another hook registered it): it stays off rather than replace that one.
      }
    } else if (!allowed && entry.live !== undefined) {
      entry.live.dispose();
      entry.live = undefined;
    }
  }
}
