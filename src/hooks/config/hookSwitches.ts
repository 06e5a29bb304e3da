import { createHash } from 'node:crypto';
import { describeSource, isManagedPluginSource, sourceDocumentLabel, type HookSource } from '../../configFiles/hookSource';
import type { HookEvent } from '../hookEvent';
import { canonicalJson } from './hookApproval';
import { handlerBody, type HookHandlerConfig } from './hookConfigSchema';
import type { LoadedHook } from './loadedHook';

/** Longest id kept, and most ids read, from `hookwise.hooks.disabled` (outside input: a workspace may set it). */
const MAX_ID_LENGTH = 1000;
const MAX_IDS = 1000;
/** Longest handler text shown inside an id; the hash covers the whole handler. */
const MAX_BODY_IN_ID = 60;

/** What a hook's switch id is made of: where it is written and what it is, never its position. */
export type SwitchSubject = Pick<LoadedHook, 'event' | 'matcher' | 'handler' | 'agentType' | 'skill'> & {
  readonly source: Exclude<HookSource, { kind: 'code' }>;
};

/**
 * The identity id `hookwise.hooks.disabled` names a configured hook by: the document, event,
 * matcher and handler, plus a short hash of their canonical JSON (with the agent or skill scope),
 * e.g. `.claude/settings.json › PreToolUse › Bash › command:./ask-before-risky.sh #1a2b3c4d` (the hash also covers the
 * source's scope: user, project, local…).
 * It does not depend on where in the file the hook is, so inserting or moving hooks never moves
 * a switch to another hook; changing the hook (its handler, matcher, event) changes the id, and
 * the loader then says the switch names no hook.
 */
export function hookIdentityId(hook: SwitchSubject): string {
  const doc = sourceDocumentLabel(hook.source);
  const matcher = hook.matcher === undefined || hook.matcher === '' ? '*' : hook.matcher;
  const full = handlerBody(hook.handler).replace(/\s+/g, ' ').trim();
  const body = full.length > MAX_BODY_IN_ID ? `${full.slice(0, MAX_BODY_IN_ID)}…` : full;
  const hash = createHash('sha256')
    // The scope too: a project file labelled like the user's (a folder named "~") never shares an id with the user's hook.
    .update(canonicalJson(['switch-v1', hook.source.scope, doc, hook.event, hook.matcher ?? '', hook.handler, hook.agentType ?? '', hook.skill ?? '']), 'utf8')
    .digest('hex')
    .slice(0, 8);
  return `${doc} › ${hook.event} › ${matcher} › ${hook.handler.type}:${body} #${hash}`;
}

/** True for an id in the identity format (ends in ` #` and 8 hex digits). */
export function isIdentityId(id: string): boolean {
  return /\s#[0-9a-f]{8}$/.test(id);
}

/**
 * The id `hookwise.hooks.disabled` names a hook by: the identity id the loader stored on its
 * source (`switchId`, see hookIdentityId), or for a hook registered by code its label (an
 * extension's API hooks switch off together by the extension's id).
 */
export function hookSwitchId(hook: Pick<LoadedHook, 'source'>): string {
  const { source } = hook;
  return source.kind !== 'code' && source.switchId !== undefined ? source.switchId : describeSource(source);
}

/**
 * The position id the switches used before identity ids (`.claude/settings.json ›
 * hooks.PreToolUse[0].hooks[0]`): what Hook Runs and diagnostics show, and what an old
 * `hookwise.hooks.disabled` value may still hold (migrated on load, hookSwitchMigration.ts).
 */
export function hookLocationId(hook: Pick<LoadedHook, 'source'>): string {
  return describeSource(hook.source);
}

/** The fields of a loaded hook an identity id is made from, for the loader. */
export function withSwitchId<S extends Exclude<HookSource, { kind: 'code' }>>(
  source: S,
  hook: { readonly event: HookEvent; readonly matcher?: string; readonly handler: HookHandlerConfig; readonly agentType?: string; readonly skill?: string },
): S {
  return { ...source, switchId: hookIdentityId({ ...hook, source }) };
}

/**
 * Managed policy hooks, and those of plugins it force-enables, cannot be switched off: the
 * organisation set them and a user or workspace setting must not silence them (the same reason `disableAllHooks` elsewhere leaves them running).
 */
export function canSwitchOff(hook: Pick<LoadedHook, 'source'>): boolean {
  return !(hook.source.kind === 'file' && hook.source.scope === 'managed') && !isManagedPluginSource(hook.source);
}

/** The setting's value as a bounded set of ids; anything that is not a string is ignored. */
export function normaliseDisabledIds(value: unknown): ReadonlySet<string> {
  if (!Array.isArray(value)) return new Set();
  const ids = value
    .slice(0, MAX_IDS)
    .filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH)
    .map((v) => v.trim());
  return new Set(ids);
}

/** True when `hook` is named in `disabled` and may be switched off. */
export function isSwitchedOff(hook: Pick<LoadedHook, 'source'>, disabled: ReadonlySet<string>): boolean {
  return disabled.size > 0 && canSwitchOff(hook) && disabled.has(hookSwitchId(hook));
}

/** Splits `hooks` into those that run and those switched off by `hookwise.hooks.disabled`; order is kept. */
export function applyHookSwitches<T extends Pick<LoadedHook, 'source'>>(hooks: readonly T[], disabled: ReadonlySet<string>): { on: T[]; off: T[] } {
  if (disabled.size === 0) return { on: [...hooks], off: [] };
  const on: T[] = [];
  const off: T[] = [];
  for (const hook of hooks) (isSwitchedOff(hook, disabled) ? off : on).push(hook);
  return { on, off };
}

/** The new `hookwise.hooks.disabled` value after switching `id` off (`off` true) or back on; order kept, no duplicates. */
export function withSwitch(current: readonly unknown[] | undefined, id: string, off: boolean): string[] {
  const ids = (current ?? []).filter((v): v is string => typeof v === 'string' && v !== id);
  return off ? [...ids, id] : ids;
}
