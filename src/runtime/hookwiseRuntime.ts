import { HookActivity } from '../agent/hookActivity';
import path from 'node:path';
import type { HookConfig } from '../hooks/config/hookConfigLoader';
import type { LoadedHook } from '../hooks/config/loadedHook';
import { hooksForCwd, scopeToCwd } from '../hooks/config/loadedHook';
import { applyHookSwitches } from '../hooks/config/hookSwitches';
import { filterByTrust, type HeldHook, type TrustPolicy } from '../hooks/config/hookApproval';
import type { PermissionRuleEntry } from '../permissions/permissionRules';
import type { BindProblem } from '../hooks/hookBinder';
import { bindLoadedHooks } from '../hooks/hookBinder';
import type { HookRunObserver, PermissionProvider } from '../hooks/hookRunTypes';
import { HookRegistry } from '../hooks/hookRegistry';
import { HookRunner } from '../hooks/hookRunner';
import type { HooksApi } from '../hooks/hooksApi';
import { createHooksApi } from '../hooks/hooksApi';
import { isProjectSource } from '../configFiles/hookSource';
import type { ModelClient, ModelMessage } from '../model/modelClient';
import { AgentHookAction } from '../agent/agentHookAction';
import type { AgentEventListener } from '../agent/agentEvents';
import { ConfigPermissionRules } from '../permissions/configPermissionRules';
import { configFilePaths, hookScriptPaths } from '../permissions/protectedWrites';
import { loadMemory } from '../agent/memory/memoryFiles';
import { MemoryAccess } from '../agent/memory/memoryAccess';
import { memoryApprover } from '../agent/memory/memoryApproval';
import type { MemoryApprovalPins } from '../agent/memory/memoryApproval';
import type { ExternalMemoryApprover } from '../agent/memory/memoryAccess';
import { loadSlashCommands } from '../agent/commands/slashCommands';
import type { PluginRoot } from '../plugins/pluginLoader';
import { pluginAgentDirs, pluginSkillDirs, withPluginCommands } from '../plugins/pluginParts';
import { hookedElicitation } from '../mcp/elicitationHooks';
import { environmentBlock, memoryBlock } from '../agent/memory/promptContext';
import { defaultManagedSettingsFile } from '../hooks/config/configSources';
import type { PromptContext } from '../agent/sessionOptions';
import type { AgentLimits } from '../agent/defaultLimits';
import { DEFAULT_AGENT_LIMITS } from '../agent/defaultLimits';
import { CompactingSessions, compactionProvider, type CompactionProviderOptions } from '../agent/compactionProvider';
import { agentBuiltins, BuiltinProviders } from './builtinProviders';
import { literalFileNames } from './fileChangedNames';
import { BUILTIN_MEMORY_ID } from '../agent/memoryProvider';
import { SessionDirectory } from '../agent/sessionDirectory';
import type { PermissionMode } from '../permissions/permissionMode';
import { askPolicy } from '../agent/permissionGate';
import type { AskPolicy } from '../agent/permissionGate';
import { Session } from '../agent/session';
import { createBuiltinTools } from '../agent/tools/builtinTools';
import type { RipgrepLocator } from '../agent/tools/ripgrep';
import type { ProcessLauncher } from '../shared/processLauncher';
import type { AgentDefinition, AgentDefinitionProblem } from '../agent/subagents/agentDefinitions';
import { BUILTIN_AGENTS, loadAgentDefinitions } from '../agent/subagents/agentDefinitions';
import { DEFAULT_MAX_SUBAGENT_DEPTH } from '../agent/subagents/agentTool';
import type { AnyAgentTool } from '../agent/tools/tool';
import { mcpScriptPaths } from '../mcp/mcpScriptPins';
import { McpServerManager } from '../mcp/mcpServerManager';
import type { McpServerManagerOptions } from '../mcp/mcpServerManager';
import { loadSkills } from '../agent/skills/skillDefinitions';
import type { SkillDefinition, SkillProblem } from '../agent/skills/skillDefinitions';

/** The system prompt of the main agent. */
export const DEFAULT_SYSTEM_PROMPT = [
  "You are Hookwise, a coding agent working in the user's workspace.",
  'Use the tools to read, search, edit files and run commands. Prefer small, verifiable steps.',
  "Every tool call passes through the user's hooks and permission rules: when a call is denied, read the reason, adapt, and do not retry the same call unchanged.",
  'When the task is done, answer with a short summary of what you did.',
].join('\n');

/** What a runtime is built from. */
export interface RuntimeOptions {
  /** Workspace root (CLAUDE_PROJECT_DIR, the file tools' boundary). */
  readonly projectDir: string;
  readonly homeDir: string;
  /** The model for the agent and for prompt/agent hooks. */
  readonly model: ModelClient;
  readonly modelName?: string;
  readonly observers?: readonly HookRunObserver[];
  /** Answers asks (a modal, the terminal); handed once to the permission gate with the fallback. */
  readonly permissionProvider?: PermissionProvider;
  /** What an ask nobody can answer becomes; default deny. */
  readonly askFallback?: 'allow' | 'deny';
  readonly limits?: () => AgentLimits;
  readonly transcriptDir: string;
  readonly systemPrompt?: string;
  /** Subagent nesting limit (hookwise.agent.maxSubagentDepth, default 2). */
  readonly maxSubagentDepth?: () => number;
  /** Cap of the message text in a model-level hook's `llm_request` (hookwise.hooks.maxInputBytes, default 4 MiB). */
  readonly hookInputMaxBytes?: () => number | undefined;
  /** Files that hold policy whether or not they hold any yet (VS Code's settings files): the agent changing one always asks. */
  readonly protectedFiles?: readonly string[];
  /** Memory files outside the project the user approved before (VS Code keeps them per workspace); absent = none. */
  readonly memoryApprovals?: MemoryApprovalPins;
  /** Where Grep and Glob find ripgrep (the host's shipped rg, the CLI's HOOKWISE_RG_PATH); absent = `rg` on PATH. */
  readonly ripgrep?: RipgrepLocator;
  /** How MCP servers run (their environment, timeouts, elicitation); the servers come from {@link HookwiseRuntime.setMcpServers}. */
  readonly mcp?: Omit<McpServerManagerOptions, 'cwd'>;
  /**
   * How processes start: `hooks` for command hooks (default the lean launcher; the extension
   * gives one on its spawn helper), `commands` for the Bash tool and `!command`s (default execa).
   */
  readonly launchers?: { readonly hooks?: ProcessLauncher; readonly commands?: ProcessLauncher };
}

/** `applyConfig`'s trust argument (defined beside the pure trust filter). */
export type { TrustPolicy } from '../hooks/config/hookApproval';

/** What applying a config did: which hooks are active, which were held back and why. */
export interface AppliedConfig {
  readonly generation: number;
  readonly active: readonly LoadedHook[];
  /** Project hooks not run: the workspace is untrusted, or the user has not approved them. */
  readonly held: readonly HeldHook[];
  readonly problems: readonly BindProblem[];
}

/**
 * The core wired once: registry + runner + the public hooks API with the built-in limits,
 * config application (trust-filtered, atomically swapped), permission rules and sessions.
 * The CLI and the extension both build one; neither assembles these parts itself.
 */
export class HookwiseRuntime {
  readonly registry = new HookRegistry();
  readonly runner: HookRunner;
  /** The in-process TypeScript API (`hooks.onPreToolUse(...)`). */
  readonly hooks: HooksApi;
  /** The MCP servers every session of this runtime uses; stopped by {@link dispose}. */
  readonly mcp: McpServerManager;
  private readonly asks: AskPolicy;
  private generation = 0;
  private config: HookConfig | undefined;
  private extraRules: PermissionRuleEntry[] = [];
  private agents: readonly AgentDefinition[] = BUILTIN_AGENTS;
  /** Counts agent loads, so a slow earlier load cannot overwrite a newer one. */
  private agentLoads = 0;
  private skills: readonly SkillDefinition[] = [];
  private skillLoads = 0;
  /** Claude Code plugins: their commands and agents join the user's and the project's. */
  private plugins: readonly PluginRoot[] = [];
  /** Every script a loaded hook runs (as named and where it lands): writing one always asks. */
  private hookScripts: ReadonlySet<string> = new Set();
  /** Every workspace script a configured MCP server runs (mcpScriptPins.ts): writing one always asks too. */
  private mcpScripts: ReadonlySet<string> = new Set();
  /** Every file a loaded hook or rule came from, plus RuntimeOptions.protectedFiles: changing one always asks. */
  private configFiles: ReadonlySet<string>;
  /** The newest session: an MCP elicitation's hook input carries its ids. */
  private lastSession: Session | undefined;
  /** Hook runs in flight: the self-protection backstop takes a data file changed while a hook ran as the hook's write. */
  private readonly hookActivity = new HookActivity();
  /** The sessions a compaction hook reaches by id, and the compaction providers installed (in run order). */
  private readonly compacting = new CompactingSessions(() => this.registry.select('BeforeStep'));
  private readonly sessionsById = new SessionDirectory<Session>(); // the sessions the memory and task reminder hooks reach by id
  /** Limits, compaction, memory and task reminders as hook providers; `hookwise.hooks.disabled` switches them (builtinProviders.ts). */
  readonly builtins: BuiltinProviders;

  constructor(private readonly o: RuntimeOptions) {
    this.configFiles = configFilePaths([], o.protectedFiles);
    this.runner = new HookRunner(this.registry, { projectDir: o.projectDir, observers: [...(o.observers ?? []), this.hookActivity] });
    this.asks = askPolicy(o.permissionProvider, o.askFallback);
    // Elicitation hooks answer first, then the person (o.mcp.elicit), then ElicitationResult hooks may change the answer.
    this.mcp = new McpServerManager({
      cwd: o.projectDir,
      env: process.env,
      ...o.mcp,
      elicit: hookedElicitation(this.runner, () => this.lastSession?.envelope(), o.mcp?.elicit),
    });
    this.hooks = createHooksApi(this.registry, { source: { kind: 'code', label: 'code' } });
    const limits = o.limits ?? (() => DEFAULT_AGENT_LIMITS);
    this.builtins = new BuiltinProviders(this.hooks, agentBuiltins({ limits, compacting: this.compacting, sessions: this.sessionsById }));
  }

  /** A compaction provider with its own summarizer, to replace the built-in one: `hooks.use(runtime.compactionProvider({ name, summarize }))`. */
  compactionProvider(options: CompactionProviderOptions): ReturnType<typeof compactionProvider> {
    return compactionProvider(this.compacting, options);
  }

  /** The model the agent uses. */
  get model(): ModelClient {
    return this.o.model;
  }

  /**
   * Makes `config` the active hook set for sessions in `cwd` (multi-root: that folder's
   * hooks plus user-level ones). Project hooks run only when trusted and approved: the rest
   * are returned in `held` and never registered. Swaps atomically; runs in flight keep theirs.
   */
  applyConfig(config: HookConfig, trust: TrustPolicy, cwd: string = this.o.projectDir): AppliedConfig {
    this.config = config;
    this.hookScripts = hookScriptPaths(config.hooks);
    this.configFiles = configFilePaths([...config.hooks.map((h) => h.source), ...config.permissions.rules.map((r) => r.source)], this.o.protectedFiles);
    // Switched-off hooks stay in config.hooks (their scripts stay protected) but are never registered.
    const switchedOn = config.disabledHookIds === undefined ? config.hooks : applyHookSwitches(config.hooks, config.disabledHookIds).on;
    const { runnable: active, held } = filterByTrust(hooksForCwd(switchedOn, cwd), trust);
    const { inits, problems } = bindLoadedHooks(active, {
      promptModel: (name) => (name ? withModelName(this.o.model, name) : this.o.model),
      // Its tools are read-only (allowed anyway), so every rule can only narrow what it reads:
      // all sources' rules apply, the project's deny rules even in an untrusted workspace.
      agentAction: (prompt, name) =>
        new AgentHookAction(prompt, this.o.model, name, (cwd) => this.permissionRules(cwd, true), this.runner.relay, this.o.ripgrep),
      ...(config.httpPolicy !== undefined ? { httpPolicy: config.httpPolicy } : {}),
      permissionContext: { projectRoot: this.o.projectDir, homeDir: this.o.homeDir },
      launcher: this.o.launchers?.hooks,
      mcpToolCaller: async (server, tool, args, signal) => {
        const result = await this.mcp.callTool(server, tool, args, signal);
        return { text: result.content, isError: result.isError };
      },
    });
    this.generation++;
    this.registry.setConfigHooks(this.generation, inits);
    this.builtins.apply(config.disabledHookIds);
    return { generation: this.generation, active, held, problems };
  }

  /**
   * Loads subagent types: built-ins, then `~/.claude/agents` and `.claude/agents` files (a
   * later name wins). Returns the files that could not be read. Call again when an agent file
   * changes: the next session sees the new types; when loads overlap, the last one started wins.
   */
  async loadAgents(dirs: readonly { readonly dir: string; readonly displayDir: string }[]): Promise<AgentDefinitionProblem[]> {
    const load = ++this.agentLoads;
    const { agents, problems } = await loadAgentDefinitions([...pluginAgentDirs(this.plugins), ...dirs]);
    if (load === this.agentLoads) this.agents = agents;
    return problems;
  }

  /** Loads skills (the plugins', `~/.claude/skills`, `.claude/skills`) for the next sessions; returns the SKILL.md files it ignored. */
  async loadSkills(dirs: Parameters<typeof loadSkills>[0]): Promise<SkillProblem[]> {
    const load = ++this.skillLoads;
    const { skills, problems } = await loadSkills([...pluginSkillDirs(this.plugins), ...dirs]);
    if (load === this.skillLoads) this.skills = skills;
    return problems;
  }

  /** Sets the plugins whose commands and agents sessions see (call loadAgents after, to reload agents); true when the set changed. */
  setPlugins(plugins: readonly PluginRoot[]): boolean {
    const key = (list: readonly PluginRoot[]): string => JSON.stringify(list);
    const changed = key(plugins) !== key(this.plugins);
    this.plugins = plugins;
    return changed;
  }

  /** The plugins last set: their MCP servers join the configured ones. */
  get pluginRoots(): readonly PluginRoot[] {
    return this.plugins;
  }

  /** The subagent types sessions can spawn. */
  get agentTypes(): readonly AgentDefinition[] {
    return this.agents;
  }

  /**
   * The MCP servers sessions use (already trust-filtered by the caller): changed or removed
   * ones are stopped, new ones start when a session next needs them.
   */
  setMcpServers(servers: Parameters<McpServerManager['setServers']>[0]): Promise<void> {
    this.mcpScripts = mcpScriptPaths(servers);
    return this.mcp.setServers(servers);
  }

  /** Stops what the runtime owns that outlives a session: the MCP servers and their process groups. */
  dispose(): Promise<void> {
    return this.mcp.dispose();
  }

  /** Extra allow rules for every session (CLI `--allowed-tools`). */
  setExtraRules(rules: readonly PermissionRuleEntry[]): void {
    this.extraRules = [...rules];
  }

  /**
   * Permission rules for a session in `cwd`: the config's plus the extra ones. In an untrusted
   * workspace the project's allow rules are dropped (they would widen permissions); its deny
   * and ask rules stay, since they can only narrow what the agent does.
   */
  permissionRules(cwd: string, trusted: boolean): ConfigPermissionRules {
    const entries = scopeToCwd(this.config?.permissions.rules ?? [], cwd).filter((e) => trusted || e.behavior !== 'allow' || !isProjectSource(e.source));
    return new ConfigPermissionRules(
      [...entries, ...this.extraRules],
      { projectRoot: this.o.projectDir, homeDir: this.o.homeDir },
      this.mcpScripts.size === 0 ? this.hookScripts : new Set([...this.hookScripts, ...this.mcpScripts]),
      this.configFiles,
    );
  }

  /**
   * The environment block and memory files a session in `cwd` appends to its system prompt.
   * `access` decides which project memory may be read (createSession passes the session's).
   */
  async promptContext(cwd: string, access?: MemoryAccess, signal?: AbortSignal): Promise<PromptContext> {
    const memory = await loadMemory({
      cwd,
      homeDir: this.o.homeDir,
      managedDir: path.dirname(defaultManagedSettingsFile()),
      ...(access ? { access } : {}),
      ...(signal ? { signal } : {}),
    });
    return { text: [environmentBlock(cwd), memoryBlock(memory)].filter(Boolean).join('\n\n'), memory };
  }

  /**
   * The mode a session starts in. An explicit mode wins; `default` means the loaded
   * `permissions.defaultMode` (local beats project beats user) — but a mode from the
   * project's own files never applies in an untrusted workspace: nothing the project wrote
   * may widen permissions there (a cloned repo must not switch the agent to
   * `bypassPermissions`), so the session stays in `default`.
   */
  startingMode(requested: PermissionMode, trusted: boolean): PermissionMode {
    const mode = this.requestedOrConfiguredMode(requested, trusted);
    // A managed `disableBypassPermissionsMode` binds the CLI flag, the VS Code setting and every settings file.
    return mode === 'bypassPermissions' && this.config?.permissions.bypassDisabledBy !== undefined ? 'default' : mode;
  }

  private requestedOrConfiguredMode(requested: PermissionMode, trusted: boolean): PermissionMode {
    if (requested !== 'default') return requested;
    const configured = this.config?.permissions.defaultMode;
    if (!configured || (!trusted && isProjectSource(configured.source))) return 'default';
    const mode = configured.value;
    return mode === 'acceptEdits' || mode === 'bypassPermissions' || mode === 'plan' ? mode : 'default';
  }

  /**
   * Starts a session (SessionStart fires when the caller calls `start`). `permissionMode` is
   * the requested mode, resolved with {@link startingMode}: the session's rules and mode both
   * follow `trusted`, so no caller can hand an untrusted project's settings a wider gate.
   */
  createSession(options: {
    readonly cwd?: string;
    readonly sessionId?: string;
    readonly permissionMode: PermissionMode;
    readonly trusted: boolean;
    readonly emit: AgentEventListener;
    readonly history?: readonly ModelMessage[];
    readonly tools?: readonly AnyAgentTool[];
    readonly compactionBudgetTokens?: number;
    /** The model's context window (tokens); absent = the model's known window, else 200,000. */
    readonly contextWindowTokens?: number;
    readonly idleNotificationMs?: number;
  }): Session {
    const cwd = options.cwd ?? this.o.projectDir;
    const rules = this.permissionRules(cwd, options.trusted);
    // Project memory reads what the Read tool may: inside the project, past no Read deny rule; a file outside asks (never in Restricted Mode).
    const memoryAccess = new MemoryAccess({
      projectDir: this.o.projectDir,
      cwd,
      trusted: options.trusted,
      readDeniedBy: (abs, real, at) => rules.readDeniedBy(abs, real, at),
      ...withApprover(memoryApprover(this.asks.provider, this.o.memoryApprovals, () => session.id)),
    });
    const session: Session = new Session({
      cwd,
      projectDir: this.o.projectDir,
      transcriptDir: this.o.transcriptDir,
      model: this.o.model,
      ...(this.o.modelName ? { modelName: this.o.modelName } : {}),
      hooks: this.runner,
      tools: options.tools ?? createBuiltinTools({ ripgrep: this.o.ripgrep, bash: { launcher: this.o.launchers?.commands } }),
      mcp: this.mcp,
      permissionMode: this.startingMode(options.permissionMode, options.trusted),
      // Untrusted: every tool call asks (the extension's Restricted Mode promise), whatever the mode or rules allow.
      restricted: !options.trusted,
      hookActivity: this.hookActivity,
      rules,
      sessionRules: new ConfigPermissionRules([], { projectRoot: this.o.projectDir, homeDir: this.o.homeDir }),
      asks: this.asks,
      systemPrompt: this.o.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
      emit: options.emit,
      agents: this.agents,
      // An untrusted workspace's skills still load, but their allowed-tools cannot widen permissions.
      skills: options.trusted ? this.skills : this.skills.map((s) => (s.scope === 'project' ? { ...s, allowedTools: [] } : s)),
      ...(options.compactionBudgetTokens ? { compactionBudgetTokens: options.compactionBudgetTokens } : {}),
      ...(options.contextWindowTokens ? { contextWindowTokens: options.contextWindowTokens } : {}),
      ...(options.idleNotificationMs ? { idleNotificationMs: options.idleNotificationMs } : {}),
      maxSubagentDepth: this.o.maxSubagentDepth?.() ?? DEFAULT_MAX_SUBAGENT_DEPTH,
      ...(this.o.hookInputMaxBytes?.() !== undefined ? { hookInputMaxBytes: this.o.hookInputMaxBytes() } : {}),
      fileChangedNames: () => literalFileNames(this.registry.select('FileChanged').map((r) => r.matcher.description)),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      promptContext: (signal) => this.promptContext(cwd, memoryAccess, signal),
      memoryAccess,
      activeCompaction: () => this.compacting.active(),
      lazyMemoryOn: () => this.registry.select('PostToolUse').some((r) => r.id === BUILTIN_MEMORY_ID),
      slashCommands: () => withPluginCommands(loadSlashCommands({ projectDir: cwd, homeDir: this.o.homeDir }), this.plugins),
      ...(options.history ? { history: options.history } : {}),
    });
    this.lastSession = session;
    this.compacting.add(session);
    this.sessionsById.add(session);
    return session;
  }
}

/** `{ approve }` when there is an approver (exactOptionalPropertyTypes). */
function withApprover(approve: ExternalMemoryApprover | undefined): { approve?: ExternalMemoryApprover } {
  return approve ? { approve } : {};
}

/** The same client, with requests defaulting to another model name (a hook's `model` field). */
function withModelName(client: ModelClient, model: string): ModelClient {
  return { label: client.label, stream: (request, signal) => client.stream({ ...request, model: request.model ?? model }, signal) };
}
