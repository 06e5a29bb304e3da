import type { HookConfig } from '../hooks/config/hookConfigLoader';
import type { HookRunObserver, PermissionProvider } from '../hooks/hookRunTypes';
import type { AgentEvent } from '../agent/agentEvents';
import { ConfigPermissionRules } from '../permissions/configPermissionRules';
import { DEFAULT_AGENT_LIMITS } from '../agent/defaultLimits';
import { HookwiseRuntime } from '../runtime/hookwiseRuntime';
import { RipgrepLocator } from '../agent/tools/ripgrep';
import { SessionManager } from '../runtime/sessionManager';
import { formatConfigDiagnostic } from '../configFiles/configDiagnostic';
import { brokenFileNotice } from '../hooks/config/lastGoodConfig';
import type { ModelClient } from '../model/modelClient';
import type { PluginRoot } from '../plugins/pluginLoader';
import { loadMcpConfig } from '../mcp/mcpConfigSources';
import { declineElicitation } from '../mcp/mcpElicitation';
import { startTelemetry } from '../telemetry/startTelemetry';
import type { TelemetryExport } from '../telemetry/telemetryExport';
import { namedFilePins } from '../agent/memory/memoryApproval';
import { version } from '../../package.json';
import type { CliArgs } from './cliArgs';
import { formatPluginProblem, loadCliConfigWithPlugins } from './cliConfig';
import { cliSwitchIds, unmatchedSwitchWarnings } from './cliHookSwitches';
import { FileLastGoodStore } from './lastGoodFiles';
import type { CliIo } from './runCli';

/**
 * Loads the hook configuration and plugins of `cwd` and says on stderr what is off (plugin
 * problems, diagnostics, a broken file's last good copy in force, hooks disabled). Returns
 * the exit code 2 when --strict-config refuses a broken file.
 */
export async function loadCliHooks(
  args: CliArgs,
  io: CliIo,
  cwd: string,
  homeDir: string,
): Promise<{ readonly config: HookConfig; readonly plugins: PluginRoot[] } | 2> {
  const switches = cliSwitchIds(args.disabledHooks ?? []);
  const {
    config,
    plugins,
    problems: pluginProblems,
  } = await loadCliConfigWithPlugins(cwd, homeDir, args.settingsFile, args.pluginDirs, FileLastGoodStore.forProject(cwd, io.env), undefined, switches.ids);
  for (const w of [...switches.warnings, ...unmatchedSwitchWarnings(switches.ids, config)]) io.stderr(`hookwise: warning: ${w}\n`);
  for (const p of pluginProblems) io.stderr(`hookwise: ${formatPluginProblem(p)}\n`);
  for (const d of config.diagnostics) if (d.code !== 'lastGoodInForce') io.stderr(`hookwise: ${formatConfigDiagnostic(d)}\n`);
  // A broken config file never silently drops its policy: its last good copy runs, and this says so (or --strict-config stops).
  for (const b of config.brokenFiles ?? []) io.stderr(`hookwise: warning: ${brokenFileNotice(b).replace(/`/g, '')}\n`);
  if (args.strictConfig && (config.brokenFiles?.length ?? 0) > 0) {
    io.stderr('hookwise: --strict-config: a hook configuration file has an error; fix it, or run without --strict-config to use its last good version\n');
    return 2;
  }
  if (config.disabled) io.stderr(`hookwise: hooks are disabled by ${config.disabledBy.join(', ')}\n`);
  else if (config.projectHooksOffBy) io.stderr(`hookwise: the project's hooks are disabled by ${config.projectHooksOffBy.join(', ')}; the user's still run\n`);
  if (args.permissionMode === 'bypassPermissions' && config.permissions.bypassDisabledBy)
    io.stderr(`hookwise: bypassPermissions is turned off by ${config.permissions.bypassDisabledBy}; running in default mode\n`);
  return { config, plugins };
}

/** What a headless agent is made of. */
export interface CliAgentParts {
  readonly cwd: string;
  readonly homeDir: string;
  readonly transcriptDir: string;
  readonly model: ModelClient;
  readonly config: HookConfig;
  readonly plugins: PluginRoot[];
  readonly prompter: PermissionProvider | undefined;
  readonly emit: (event: AgentEvent) => void;
  readonly observer: HookRunObserver;
}

/** A headless agent ready for its prompt; `stopReporting` ends the MCP problem reports. */
export interface CliAgent {
  readonly runtime: HookwiseRuntime;
  readonly sessions: SessionManager;
  readonly telemetry: TelemetryExport | undefined;
  readonly stopReporting: () => void;
}

/**
 * The same core as the extension, headless: the runtime with the configuration applied (a
 * headless run counts as trusted, like Claude Code's `-p`), telemetry when OTEL_* asks for
 * it, the MCP servers, the agent files and --allowed-tools. Problems go to stderr.
 */
export async function startCliAgent(args: CliArgs, io: CliIo, parts: CliAgentParts): Promise<CliAgent> {
  const { cwd, homeDir, transcriptDir, prompter, plugins } = parts;
  const runtime = new HookwiseRuntime({
    projectDir: cwd,
    homeDir,
    model: parts.model,
    ...(args.model ? { modelName: args.model } : {}),
    transcriptDir,
    ...(prompter ? { permissionProvider: prompter } : {}),
    // Headless, a memory import outside the project loads only when named on the command line (or approved at the terminal).
    ...(args.memoryImports ? { memoryApprovals: namedFilePins(args.memoryImports, cwd) } : {}),
    // Nobody can fill a server's form headless: elicitations are declined.
    mcp: { env: io.env, elicit: declineElicitation },
    // Grep and Glob: --rg-path / $HOOKWISE_RG_PATH, then rg on PATH; a missing rg is one line on stderr.
    ripgrep: new RipgrepLocator({ candidates: [args.rgPath], onDiagnostic: (message) => io.stderr(`${message}\n`) }),
    limits: () => ({ ...DEFAULT_AGENT_LIMITS, ...(args.maxSteps ? { maxSteps: args.maxSteps } : {}) }),
    hookInputMaxBytes: () => positiveInt(io.env['HOOKWISE_HOOKS_MAX_INPUT_BYTES']),
    observers: [parts.observer],
  });
  const applied = runtime.applyConfig(parts.config, { trusted: true });
  runtime.setPlugins(plugins);
  // OpenTelemetry export: only when the standard OTEL_* variables ask for it (the SDK is loaded then).
  const telemetry = await startTelemetry(undefined, io.env, version, (message) => io.stderr(`hookwise: ${message}\n`));
  const sessions = new SessionManager({
    runtime,
    projectDir: cwd,
    homeDir,
    transcriptDir,
    settings: () => ({
      cwd,
      permissionMode: args.permissionMode,
      trusted: true,
      emit: parts.emit,
      ...(args.contextWindow ? { contextWindowTokens: args.contextWindow } : {}),
    }),
    ...(telemetry ? { observer: () => telemetry } : {}),
  });
  // MCP servers, like hooks: a headless run counts as trusted, so the project's .mcp.json servers start too.
  const mcp = await loadMcpConfig({
    homeDir,
    projectDir: cwd,
    env: io.env,
    cwd: process.cwd(),
    flagConfigs: args.mcpConfigs,
    strict: args.strictMcpConfig,
    plugins,
  });
  for (const p of mcp.problems) io.stderr(`hookwise: ${p.displayFile}${p.jsonPath ? ` › ${p.jsonPath}` : ''}: ${p.message}\n`);
  const stopReporting = reportMcpProblems(runtime, io);
  await runtime.setMcpServers(mcp.servers);
  const agentProblems = await sessions.loadAgents();
  for (const p of agentProblems) io.stderr(`hookwise: agent file ${p.file} ignored: ${p.message}\n`);
  for (const p of applied.problems)
    io.stderr(
      `hookwise: hook at ${p.hook.source.kind === 'file' ? `${p.hook.source.displayFile} › ${p.hook.source.jsonPath}` : p.hook.event} is off: ${p.message}\n`,
    );
  runtime.setExtraRules(ConfigPermissionRules.allowList(args.allowedTools, { kind: 'code', label: '--allowed-tools' }));
  return { runtime, sessions, telemetry, stopReporting };
}

/** Says on stderr, once each and as it happens, which MCP server could not start (with the end of its stderr) and which tool was left out. */
function reportMcpProblems(runtime: HookwiseRuntime, io: CliIo): () => void {
  const said = new Set<string>();
  return runtime.mcp.onDidChange(() => {
    for (const s of runtime.mcp.statuses()) {
      if (s.state !== 'failed' || said.has(`server:${s.name}`)) continue;
      said.add(`server:${s.name}`);
      const tail = s.stderrTail?.trim().split('\n').slice(-5).join('\n');
      io.stderr(`hookwise: MCP server "${s.name}" (${s.displayFile}) ${s.error ?? 'failed'}${tail ? `\n${tail}` : ''}\n`);
    }
    for (const p of runtime.mcp.toolProblems()) {
      if (said.has(`tool:${p.server}/${p.tool}`)) continue;
      said.add(`tool:${p.server}/${p.tool}`);
      io.stderr(`hookwise: MCP tool "${p.tool}" of server "${p.server}" is off: ${p.message}\n`);
    }
  });
}

/** `$HOOKWISE_HOOKS_MAX_INPUT_BYTES` and the like: a positive integer, or undefined (the default applies). */
function positiveInt(text: string | undefined): number | undefined {
  const n = text === undefined ? NaN : Number(text);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
