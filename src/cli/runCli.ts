import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../agent/agentEvents';
import { ConfigPermissionRules } from '../permissions/configPermissionRules';
import { DEFAULT_AGENT_LIMITS } from '../agent/defaultLimits';
import { HookwiseRuntime } from '../runtime/hookwiseRuntime';
import { RipgrepLocator } from '../agent/tools/ripgrep';
import type { Session, SubmitResult } from '../agent/session';
import { SessionManager } from '../runtime/sessionManager';
import { transcriptDirFor } from '../agent/transcriptLocation';
import { formatConfigDiagnostic } from '../configFiles/configDiagnostic';
import { formatPluginProblem, loadCliConfigWithPlugins } from './cliConfig';
import { FileLastGoodStore } from './lastGoodFiles';
import { brokenFileNotice } from '../hooks/config/lastGoodConfig';
import type { HookRunner } from '../hooks/hookRunner';
import { killLiveProcessGroups } from '../shared/processGroups';
import type { ModelClient } from '../model/modelClient';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { PlaygroundModelClient } from '../model/playgroundModelClient';
import { loadPlaygroundScript } from '../model/playgroundScript';
import type { CliArgs } from './cliArgs';
import { parseBuiltinCommand } from '../runtime/builtinCommands';
import { runCliBuiltin } from './cliBuiltin';
import { hookRunLine, streamLine, toCliHookRun } from './cliOutput';
import type { CliHookRun } from './cliOutput';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import { openPromptTerminal, TtyPermissionProvider } from './ttyPermissionProvider';
import { loadMcpConfig } from '../mcp/mcpConfigSources';
import { declineElicitation } from '../mcp/mcpElicitation';
import { startTelemetry } from '../telemetry/startTelemetry';
import { namedFilePins } from '../agent/memory/memoryApproval';
import { version } from '../../package.json';

/** Where the CLI writes: stdout for results, stderr for notices. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
}

/**
 * Runs one headless prompt (`hookwise -p`), the same core as the extension: hooks from
 * `~/.claude/settings.json` and the cwd's `.claude/` files (a headless run counts as
 * trusted, like Claude Code's `-p`). An ask is answered at the terminal when there is one
 * (`--permission-prompt`), else denied unless rules allow.
 * Returns the exit code: 0 completed, 1 failed/stopped/blocked, 2 bad usage.
 */
export async function runCli(args: CliArgs, io: CliIo): Promise<number> {
  const cwd = path.resolve(args.cwd);
  if (!existsSync(cwd)) {
    io.stderr(`hookwise: --cwd ${cwd} does not exist\n`);
    return 2;
  }
  const model = await createModel(args, io);
  if (typeof model === 'string') {
    io.stderr(`hookwise: ${model}\n`);
    return 2;
  }

  const homeDir = io.env.HOME ?? os.homedir();
  const {
    config,
    plugins,
    problems: pluginProblems,
  } = await loadCliConfigWithPlugins(cwd, homeDir, args.settingsFile, args.pluginDirs, FileLastGoodStore.forProject(cwd, io.env));
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

  // The json result's hook_runs, in the order runs finished. Only the projection is kept, never
  // the record: a record holds the hook's input and output, and a long session would keep
  // every one of them until exit.
  const hookRuns = new Map<string, CliHookRun>();
  const stream = args.outputFormat === 'stream-json';
  const emit = (event: AgentEvent): void => {
    // A self-protection event (a protected file reverted or kept) is logged whatever the format.
    if (event.type === 'systemMessage' && event.source === 'protection') io.stderr(`hookwise: ${event.text}\n`);
    if (event.type === 'text' && args.outputFormat === 'text') return;
    // A memory file or import left out is said on stderr too (stream-json has it as a system line), naming the file and the import.
    if (!stream && event.type === 'systemMessage' && event.source === 'memory') io.stderr(`hookwise: ${event.text}\n`);
    if (!stream) return;
    const line = streamLine(event);
    if (line) io.stdout(`${JSON.stringify(line)}\n`);
  };
  // Hook runs come from the runner's observers, not the agent's events.
  const observeHookRun = (record: HookRunRecord, phase: 'finished' | 'askResolved'): void => {
    if (args.outputFormat === 'json') hookRuns.set(record.runId, toCliHookRun(record));
    if (stream) io.stdout(`${JSON.stringify(hookRunLine(record, phase))}\n`);
  };
  const terminal = openPromptTerminal(args.permissionPrompt ?? 'auto');
  if (typeof terminal === 'string') {
    io.stderr(`hookwise: ${terminal}\n`);
    return 2;
  }
  const prompter = terminal ? new TtyPermissionProvider(terminal) : undefined;
  const transcriptDir = transcriptDirFor(cwd, io.env);
  const runtime = new HookwiseRuntime({
    projectDir: cwd,
    homeDir,
    model,
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
    observers: [{ onHookFinished: (record) => observeHookRun(record, 'finished'), onAskResolved: (record) => observeHookRun(record, 'askResolved') }],
  });
  const applied = runtime.applyConfig(config, { trusted: true });
  runtime.setPlugins(plugins);
  // OpenTelemetry export: only when the standard OTEL_* variables ask for it (the SDK is loaded then).
  const telemetry = await startTelemetry(undefined, io.env, version, (message) => io.stderr(`hookwise: ${message}\n`));
  const sessions = new SessionManager({
    runtime,
    projectDir: cwd,
    homeDir,
    transcriptDir,
    settings: () => ({ cwd, permissionMode: args.permissionMode, trusted: true, emit }),
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

  if (args.resume) {
    const resumed = await sessions.resume(args.resume);
    if (!resumed.ok) {
      io.stderr(`hookwise: ${resumed.error}\n`);
      prompter?.close();
      await telemetry?.dispose();
      return 2;
    }
    for (const notice of resumed.notices) io.stderr(`hookwise: ${notice}\n`);
  }

  const shutdown = async (): Promise<void> => {
    await sessions.end('other');
    stopReporting();
    await runtime.dispose();
    await settleBackgroundHooks(runtime.runner, io.signal);
    prompter?.close();
    // Bounded: a receiver that is down costs at most FLUSH_TIMEOUT_MS and one warning.
    await telemetry?.dispose();
  };
  // Built-ins (/hooks, /compact…) come before custom commands and never reach the model.
  const builtin = parseBuiltinCommand(args.prompt);
  if (builtin) {
    try {
      if (args.setup) await sessions.ensureStarted(io.signal, args.setup);
      return await runCliBuiltin(builtin, { sessions, runtime }, args, io, () => [...hookRuns.values()]);
    } finally {
      await shutdown();
    }
  }
  let result: SubmitResult;
  let session: Session;
  try {
    session = await sessions.ensureStarted(io.signal, args.setup);
    result = await session.submit(args.prompt, io.signal);
  } finally {
    await shutdown();
  }

  const isError = result.status !== 'completed';
  const resultText = result.status === 'blocked' ? `Prompt blocked by ${result.blockedBy}: ${result.reason}` : result.finalText;
  if (args.outputFormat === 'json') {
    io.stdout(
      `${JSON.stringify({ result: resultText, session_id: session.id, num_turns: result.status === 'blocked' ? 0 : result.steps, is_error: isError, status: result.status, ...(result.status !== 'blocked' && result.reason ? { reason: result.reason } : {}), transcript_path: session.transcriptPath, hook_runs: [...hookRuns.values()] })}\n`,
    );
  } else if (stream) {
    io.stdout(
      `${JSON.stringify({ type: 'result', result: resultText, session_id: session.id, is_error: isError, status: result.status, num_turns: result.status === 'blocked' ? 0 : result.steps })}\n`,
    );
  } else {
    if (resultText) io.stdout(`${resultText}\n`);
    if (result.status !== 'completed' && result.status !== 'blocked') io.stderr(`hookwise: run ${result.status}${result.reason ? `: ${result.reason}` : ''}\n`);
  }
  return isError ? 1 : 0;
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

/** After a stop (Ctrl+C, SIGTERM, SIGHUP), how long async hooks still get to finish. */
export const BACKGROUND_GRACE_AFTER_STOP_MS = 2_000;

/**
 * Async hooks (an audit log, say) finish before the process exits, each within its timeout.
 * After a stop they get {@link BACKGROUND_GRACE_AFTER_STOP_MS}; then every process group
 * still running is killed, so a stopped CLI neither waits up to a hook's timeout nor leaves
 * a hook behind.
 */
async function settleBackgroundHooks(runner: HookRunner, signal: AbortSignal): Promise<void> {
  if (!signal.aborted) {
    await runner.settleBackground();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([runner.settleBackground(), new Promise<void>((resolve) => (timer = setTimeout(resolve, BACKGROUND_GRACE_AFTER_STOP_MS)))]);
  clearTimeout(timer);
  killLiveProcessGroups();
}

async function createModel(args: CliArgs, io: CliIo): Promise<ModelClient | string> {
  if (args.playgroundScript) {
    const loaded = await loadPlaygroundScript(path.resolve(args.cwd, args.playgroundScript));
    return loaded.ok ? new PlaygroundModelClient(loaded.script, { chunkDelayMs: 0 }) : loaded.error;
  }
  if (!args.model)
    return 'no model: pass --model NAME (with --base-url or OPENAI_BASE_URL for a local endpoint), set HOOKWISE_MODEL, or use --model playground:FILE';
  return new OpenAiModelClient({
    model: args.model,
    ...(args.baseUrl ? { baseURL: args.baseUrl } : {}),
    ...(args.apiKey ? { apiKey: args.apiKey } : {}),
    onRetry: (info) => io.stderr(`hookwise: ${info.error.message} — retrying in ${(info.delayMs / 1000).toFixed(1)} s\n`),
  });
}
