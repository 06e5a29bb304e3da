import type { HookAction } from './hookAction';
import { CommandHookAction } from './actions/commandHookAction';
import { pluginHookEnv } from './config/pluginHookSources';
import { PromptHookAction } from './actions/promptHookAction';
import { BlockedHttpHookAction } from './actions/blockedHttpHookAction';
import { HttpHookAction } from './actions/httpHookAction';
import { McpToolHookAction, type McpToolCaller } from './actions/mcpToolHookAction';
import { checkHttpHookUrl, effectiveAllowedEnvVars, httpPolicyLayerOfHook, NO_HTTP_HOOK_POLICY, type HttpHookPolicy } from './actions/httpHookPolicy';
import type { PermissionContext } from '../permissions/permissionRules';
import type { ProcessLauncher } from '../shared/processLauncher';
import { compileHookCondition, type HookCondition } from './hookCondition';
import type { PromptHookModel } from './actions/promptHookAction';
import type { LoadedFormatHook, LoadedHook } from './config/loadedHook';
import { FormatCommandAction } from './formats/formatCommandAction';
import { compileFormatMatcher, hookFormatAdapter } from './formats/formatRegistry';
import type { HookRegistrationInit } from './hookRegistry';
import { describeSource } from '../configFiles/hookSource';
import { LEGACY_TOOL_NAME_ALIASES, tryCompileClaudeMatcher } from './matchers/claudeMatcher';

/** What the binder needs to build actions for prompt and agent hooks. */
export interface HookBinderOptions {
  /** Model for prompt hooks (a factory receives the hook's `model` field). */
  readonly promptModel?: PromptHookModel;
  /** Builds an agent hook's action (a read-only subagent); absent = agent hooks fail with a clear message. */
  readonly agentAction?: (prompt: string, model: string | undefined) => HookAction;
  /** `allowedHttpHookUrls` / `httpHookAllowedEnvVars` of the settings files; default no limit (user info is refused anyway). */
  readonly httpPolicy?: HttpHookPolicy;
  /** Calls a tool of a configured MCP server (`mcp_tool` hooks); absent = those hooks fail with a clear message. */
  readonly mcpToolCaller?: McpToolCaller;
  /** Roots the paths of `if` conditions resolve against (default: the process cwd). */
  readonly permissionContext?: PermissionContext;
  /** How command hooks start their processes (default the lean launcher without a spawn helper). */
  readonly launcher?: ProcessLauncher;
}

/** A hook the binder could not turn into a registration, with why. */
export interface BindProblem {
  readonly hook: LoadedHook;
  readonly message: string;
}

/**
 * Turns loaded config hooks (pure data) into HookRegistry registrations: compiles matchers
 * once (the `Task` matcher also selects the `Agent` tool, its old name), builds the action
 * per handler type, converts timeouts from seconds to ms, and gives each a stable id from its
 * source so records stay comparable across reloads. Problems are returned, never thrown.
 */
export function bindLoadedHooks(hooks: readonly LoadedHook[], options: HookBinderOptions): { inits: HookRegistrationInit[]; problems: BindProblem[] } {
  const inits: HookRegistrationInit[] = [];
  const problems: BindProblem[] = [];
  const ids = new Set<string>();
  for (const hook of hooks) {
    if (hook.format !== undefined) {
      const bound = bindFormatHook(hook, hook.format, options);
      if (typeof bound === 'string') problems.push({ hook, message: bound });
      else inits.push({ ...bound, id: uniqueId(hook, ids) });
      continue;
    }
    const compiled = tryCompileClaudeMatcher(hook.matcher, { aliases: LEGACY_TOOL_NAME_ALIASES });
    if (!compiled.ok) {
      problems.push({ hook, message: compiled.error.message });
      continue;
    }
    const action = actionFor(hook, options);
    if (typeof action === 'string') {
      problems.push({ hook, message: action });
      continue;
    }
    let condition: HookCondition | undefined;
    if (hook.handler.if !== undefined) {
      const compiled = compileHookCondition(hook.handler.if, options.permissionContext ?? { projectRoot: process.cwd() });
      if (typeof compiled === 'string') {
        problems.push({ hook, message: compiled });
        continue;
      }
      condition = compiled;
    }
    const { handler } = hook;
    inits.push({
      id: uniqueId(hook, ids),
      event: hook.event,
      matcher: compiled.matcher,
      action,
      source: hook.source,
      ...(handler.priority !== undefined ? { priority: handler.priority } : {}),
      ...(handler.timeout !== undefined ? { timeoutMs: handler.timeout * 1000 } : {}),
      ...(handler.continueOnFailure !== undefined ? { continueOnFailure: handler.continueOnFailure } : {}),
      ...(hook.agentType !== undefined ? { agentType: hook.agentType } : {}),
      ...(handler.type === 'command' && handler.async === true ? { background: true } : {}),
      ...(handler.statusMessage !== undefined ? { statusMessage: handler.statusMessage } : {}),
      ...(condition !== undefined ? { condition } : {}),
      ...(handler.once === true ? { once: true } : {}),
      ...(hook.skill !== undefined ? { skill: hook.skill } : {}),
    });
  }
  return { inits, problems };
}

/** A stable id from the hook's source, unique within one bind. */
function uniqueId(hook: LoadedHook, ids: Set<string>): string {
  let id = `config:${describeSource(hook.source)}${hook.folder ? `@${hook.folder}` : ''}`;
  for (let n = 2; ids.has(id); n++) id = `${id}#${n}`;
  ids.add(id);
  return id;
}

/** Another agent's hook: its matcher in that agent's syntax, its action with that agent's input and output, its defaults. */
function bindFormatHook(hook: LoadedHook, format: LoadedFormatHook, options: HookBinderOptions): Omit<HookRegistrationInit, 'id'> | string {
  const { binding } = format;
  const adapter = hookFormatAdapter(binding.format);
  if (adapter === undefined) return `hooks of the ${binding.format} format cannot run in this version`;
  if (hook.handler.type !== 'command') return `${adapter.displayName} hooks run commands only`;
  const compiled = compileFormatMatcher(binding, hook.event);
  if (!compiled.ok) return compiled.message;
  const { matcher } = compiled;
  const action = new FormatCommandAction(adapter, binding, hook.handler.command, {
    ...(format.cwd !== undefined ? { cwd: format.cwd } : {}),
    ...(format.env !== undefined ? { env: format.env } : {}),
    ...(options.launcher !== undefined ? { launcher: options.launcher } : {}),
  });
  return {
    event: hook.event,
    matcher,
    action,
    source: hook.source,
    ...(binding.timeoutMs !== undefined ? { timeoutMs: binding.timeoutMs } : {}),
    ...(adapter.failClosed(binding) ? { continueOnFailure: false } : {}),
  };
}

function actionFor(hook: LoadedHook, options: HookBinderOptions): HookAction | string {
  const { handler } = hook;
  switch (handler.type) {
    case 'command':
      return new CommandHookAction(handler.command, {
        ...(handler.args !== undefined ? { args: handler.args } : {}),
        ...(handler.shell !== undefined ? { shell: handler.shell } : {}),
        ...(hook.source.kind === 'file' && hook.source.plugin !== undefined ? { env: pluginHookEnv(hook.source.plugin) } : {}),
        ...(options.launcher !== undefined ? { launcher: options.launcher } : {}),
      });
    case 'http': {
      const policy = options.httpPolicy ?? NO_HTTP_HOOK_POLICY;
      const layer = httpPolicyLayerOfHook(hook.source);
      const verdict = checkHttpHookUrl(handler.url, policy, layer);
      if (!verdict.allowed) return new BlockedHttpHookAction(handler.url, verdict.reason);
      return new HttpHookAction(handler.url, {
        ...(handler.headers !== undefined ? { headers: handler.headers } : {}),
        allowedEnvVars: effectiveAllowedEnvVars(handler.allowedEnvVars, policy, layer),
      });
    }
    case 'mcp_tool':
      if (!options.mcpToolCaller) return 'mcp_tool hooks need the MCP servers of a session';
      return new McpToolHookAction(handler.server, handler.tool, handler.input ?? {}, options.mcpToolCaller);
    case 'prompt':
      if (!options.promptModel) return 'prompt hooks need a model: configure one (hookwise.model.*, or --model / OPENAI_BASE_URL for the CLI)';
      return new PromptHookAction(handler.prompt, options.promptModel, handler.model !== undefined ? { model: handler.model } : {});
    case 'agent':
      if (!options.agentAction) return 'agent hooks need a model: configure one (hookwise.model.*, or --model / OPENAI_BASE_URL for the CLI)';
      return options.agentAction(handler.prompt, handler.model);
  }
}
