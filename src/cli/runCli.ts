import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Session, SubmitResult } from '../agent/session';
import { transcriptDirFor } from '../agent/transcriptLocation';
import type { HookRunner } from '../hooks/hookRunner';
import { killLiveProcessGroups } from '../shared/processGroups';
import type { ModelClient } from '../model/modelClient';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { PlaygroundModelClient } from '../model/playgroundModelClient';
import { loadPlaygroundScript } from '../model/playgroundScript';
import type { CliArgs } from './cliArgs';
import { parseBuiltinCommand } from '../runtime/builtinCommands';
import { promptOutcomeText, runEndNotice } from '../presentation/agentEventText';
import { loadCliHooks, startCliAgent, type CliAgent } from './cliAgent';
import { runCliBuiltin } from './cliBuiltin';
import { CliEventSink } from './cliEventSink';
import { openPromptTerminal, TtyPermissionProvider } from './ttyPermissionProvider';

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
  const hooks = await loadCliHooks(args, io, cwd, homeDir);
  if (hooks === 2) return 2;
  const sink = new CliEventSink(args, io);
  const terminal = openPromptTerminal(args.permissionPrompt ?? 'auto');
  if (typeof terminal === 'string') {
    io.stderr(`hookwise: ${terminal}\n`);
    return 2;
  }
  const prompter = terminal ? new TtyPermissionProvider(terminal) : undefined;
  const transcriptDir = transcriptDirFor(cwd, io.env);
  const agent = await startCliAgent(args, io, { cwd, homeDir, transcriptDir, model, ...hooks, prompter, emit: sink.emit, observer: sink.observer });
  const { sessions, runtime, telemetry } = agent;
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
  const shutdown = (): Promise<void> => shutdownAgent(agent, io, prompter);
  // Built-ins (/hooks, /compact…) come before custom commands and never reach the model.
  const builtin = parseBuiltinCommand(args.prompt);
  if (builtin) {
    try {
      if (args.setup) await sessions.ensureStarted(io.signal, args.setup);
      return await runCliBuiltin(builtin, { sessions, runtime }, args, io, () => sink.hookRuns());
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
  return writeResult(result, session, args, io, sink);
}

/** Ends the session, the runtime and the background hooks, the terminal prompt and telemetry. */
async function shutdownAgent(agent: CliAgent, io: CliIo, prompter: TtyPermissionProvider | undefined): Promise<void> {
  await agent.sessions.end('other');
  agent.stopReporting();
  await agent.runtime.dispose();
  await settleBackgroundHooks(agent.runtime.runner, io.signal);
  prompter?.close();
  // Bounded: a receiver that is down costs at most FLUSH_TIMEOUT_MS and one warning.
  await agent.telemetry?.dispose();
}

/** Writes the run's result in the output format asked for; returns the exit code (1 unless completed). */
function writeResult(result: SubmitResult, session: Session, args: CliArgs, io: CliIo, sink: CliEventSink): number {
  const isError = result.status !== 'completed';
  const resultText = promptOutcomeText(result);
  if (args.outputFormat === 'json') {
    io.stdout(
      `${JSON.stringify({ result: resultText, session_id: session.id, num_turns: result.status === 'blocked' ? 0 : result.steps, is_error: isError, status: result.status, ...(result.status !== 'blocked' && result.reason ? { reason: result.reason } : {}), transcript_path: session.transcriptPath, hook_runs: sink.hookRuns() })}\n`,
    );
  } else if (args.outputFormat === 'stream-json') {
    io.stdout(
      `${JSON.stringify({ type: 'result', result: resultText, session_id: session.id, is_error: isError, status: result.status, num_turns: result.status === 'blocked' ? 0 : result.steps })}\n`,
    );
  } else {
    if (resultText) io.stdout(`${resultText}\n`);
    const notice = runEndNotice(result);
    if (notice) io.stderr(`hookwise: ${notice}\n`);
  }
  return isError ? 1 : 0;
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
