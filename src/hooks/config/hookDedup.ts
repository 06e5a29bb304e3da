import type { HookSource } from '../../configFiles/hookSource';
import type { LoadedHook } from './loadedHook';
import { handlerBody } from './hookConfigSchema';

/** A hook dropped because an identical one came earlier in merge order. */
export interface DroppedDuplicate {
  readonly dropped: LoadedHook;
  readonly keptSource: HookSource;
}

/** Identity of what a hook does and where it applies, for dedup (matcher '', '*' and none are the same). */
export function hookIdentity(hook: LoadedHook): string {
  const { handler } = hook;
  // args are part of what runs: `node a.js` and `node` + ["a.js"] differ only in quoting, but two arg lists are two hooks.
  const body = handler.type === 'command' && handler.args !== undefined ? JSON.stringify([handler.command, ...handler.args]) : handlerBody(handler);
  const model = handler.type === 'prompt' || handler.type === 'agent' ? (handler.model ?? '') : '';
  const matcher = hook.matcher === undefined || hook.matcher === '*' ? '' : hook.matcher;
  // `if` and `shell` change when or how the same text runs: hooks differing in them are not duplicates.
  const how = handler.type === 'command' ? (handler.shell ?? '') : '';
  // Another agent's hook runs with that agent's semantics: never the same hook as a `.claude` one.
  const format = hook.format !== undefined ? [hook.format] : [];
  return JSON.stringify([hook.event, matcher, handler.type, body, model, hook.agentType ?? '', hook.skill ?? '', handler.if ?? '', how, ...format]);
}

/**
 * Keeps the first of identical hooks (same event, matcher, command/prompt, agent scope).
 * A later hook is a duplicate of a kept one that applies at least wherever it does: the same
 * folder, or no folder (user level). Hooks of two different folders are both kept.
 */
export function dedupHooks(hooks: readonly LoadedHook[]): { kept: LoadedHook[]; duplicates: DroppedDuplicate[] } {
  const seen = new Map<string, LoadedHook[]>();
  const kept: LoadedHook[] = [];
  const duplicates: DroppedDuplicate[] = [];
  for (const hook of hooks) {
    const id = hookIdentity(hook);
    const earlier = seen.get(id) ?? [];
    const cover = earlier.find((k) => k.folder === undefined || k.folder === hook.folder);
    if (cover) {
      duplicates.push({ dropped: hook, keptSource: cover.source });
      continue;
    }
    earlier.push(hook);
    seen.set(id, earlier);
    kept.push(hook);
  }
  return { kept, duplicates };
}
