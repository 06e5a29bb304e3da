import path from 'node:path';
import type { HookEvent } from '../hookEvent';
import { describeSource, isManagedPluginSource, MANAGED_PLUGIN_NOTE, type HookSource } from '../../configFiles/hookSource';
import { handlerBody, type HookHandlerConfig } from './hookConfigSchema';
import { hookIdentity } from './hookDedup';
import type { ScriptPin } from './scriptPins';
import type { FormatBinding } from '../formats/hookFormat';

/**
 * A hook of another agent's file (src/hooks/formats): how that agent runs it. Part of the approval
 * key and of the hook's identity, so a change asks again and it never dedups with a `.claude` hook.
 */
export interface LoadedFormatHook {
  readonly binding: FormatBinding;
  /** Working directory relative to the project (the file's `cwd`). */
  readonly cwd?: string;
  /** The file's env for this hook. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * One configured hook, as pure data. A small binder turns these into HookRunner
 * registrations; nothing here runs anything.
 */
export interface LoadedHook {
  readonly event: HookEvent;
  /** The group's matcher as written; undefined when absent. */
  readonly matcher?: string;
  readonly handler: HookHandlerConfig;
  /** Source file/settings layer and JSON path of the handler. */
  readonly source: HookSource;
  /** Scoped to one subagent type (from `.claude/agents/*.md`); undefined = every agent. */
  readonly agentType?: string;
  /** Scoped to one skill (SKILL.md `hooks:`): runs only in a session that has loaded that skill. */
  readonly skill?: string;
  /** Workspace folder root the hook belongs to; undefined = applies everywhere (user level, workspace settings). */
  readonly folder?: string;
  /** Workspace files the command runs, pinned at load (scriptPins.ts): in the approval key of project hooks; protected for every hook. */
  readonly scripts?: readonly ScriptPin[];
  /** Approval key: the whole definition plus `scripts` (see hookApproval.ts). */
  readonly hash: string;
  /** Set for a hook of another agent's file: it runs with that agent's semantics (hookBinder.ts). */
  readonly format?: LoadedFormatHook;
}

/** True when `cwd` is `folder` or inside it (case-insensitive on Windows and macOS, like their file systems). */
export function folderContains(folder: string, cwd: string): boolean {
  const norm = (p: string): string => {
    const resolved = path.resolve(p);
    return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
  };
  const f = norm(folder);
  const c = norm(cwd);
  if (c === f) return true;
  return c.startsWith(f.endsWith(path.sep) ? f : f + path.sep);
}

/**
 * Multi-root scoping: keeps items without a folder (user level, workspace settings) plus
 * those whose folder contains `cwd`. Order is preserved. Works for hooks and permission rules.
 */
export function scopeToCwd<T extends { readonly folder?: string }>(items: readonly T[], cwd: string): T[] {
  return items.filter((item) => item.folder === undefined || folderContains(item.folder, cwd));
}

/**
 * The hooks that apply to a session whose cwd is `cwd` (docs/hooks.md §6, multi-root): user-level
 * hooks plus those of the folder containing `cwd`, in merge order. Identical hooks that
 * now both apply (a folder hook and a later workspace-level copy) run once: the first is kept.
 */
export function hooksForCwd(hooks: readonly LoadedHook[], cwd: string): LoadedHook[] {
  const seen = new Set<string>();
  return scopeToCwd(hooks, cwd).filter((hook) => {
    const id = hookIdentity(hook);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Another agent's hook: its own event name and the fields only that agent has (they are part of the approval too). */
function formatNote(hook: LoadedHook): string {
  if (hook.format === undefined) return '';
  const { binding, cwd, env } = hook.format;
  const agent = hook.source.kind === 'file' && hook.source.format !== undefined ? `${hook.source.format} ` : '';
  const options = Object.entries(binding.options ?? {})
    .filter(([key]) => key === 'failClosed' || key === 'showOutput')
    .map(([key, value]) => `${key}: ${String(value)}`);
  const extra = [...options, ...(cwd !== undefined && cwd !== '.' ? [`cwd ${cwd}`] : []), ...(env !== undefined ? [`env ${Object.keys(env).join(', ')}`] : [])];
  return ` (${agent}${binding.nativeEvent}${extra.length > 0 ? `; ${extra.join('; ')}` : ''})`;
}

/**
 * One line per hook for "Show Effective Hooks", the log and the CLI:
 * `PreToolUse [Bash] command: ./check.sh (timeout 30 s) — .claude/settings.json › hooks.PreToolUse[0].hooks[0]`.
 */
export function describeLoadedHook(hook: LoadedHook): string {
  const { handler } = hook;
  const scope = hook.agentType !== undefined ? ` (agent ${hook.agentType})` : hook.skill !== undefined ? ` (skill ${hook.skill})` : '';
  const matcher = hook.matcher === undefined || hook.matcher === '' ? '' : ` [${hook.matcher}]`;
  const full = handlerBody(handler);
  const body = handler.type === 'prompt' || handler.type === 'agent' ? (full.length > 60 ? `${full.slice(0, 60)}…` : full) : full;
  const timeout = handler.timeout !== undefined ? ` (timeout ${handler.timeout} s)` : '';
  return `${hook.event}${formatNote(hook)}${matcher}${scope} ${handler.type}: ${body}${timeout} — ${describeSource(hook.source)}${isManagedPluginSource(hook.source) ? ` (${MANAGED_PLUGIN_NOTE})` : ''}`;
}
