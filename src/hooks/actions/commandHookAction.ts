import type { HookAction, HookActionContext, HookActionResult, HookRawOutput } from '../hookAction';
import { proceed } from '../hookOutcome';
import { DEFAULT_MAX_OUTPUT_BYTES, type ProcessLauncher, type ProcessRunResult } from '../../shared/processLauncher';
import { runProgram, runShellCommand } from '../../shared/processRunner';
import { interpretCommandResult } from './interpretCommandResult';

/** Options of a {@link CommandHookAction} beyond the command itself. */
export interface CommandHookOptions {
  /** Cap per output stream in bytes (default 1 MiB); the excess is dropped and flagged. */
  readonly maxOutputBytes?: number;
  /** Exec form: `command` is the program, these its arguments; no shell is involved. */
  readonly args?: readonly string[];
  /** The shell that runs `command` (ignored with `args`); default /bin/sh (Git Bash or cmd.exe on Windows). */
  readonly shell?: HookShell;
  /** Extra environment for this hook only (a plugin's `CLAUDE_PLUGIN_ROOT` / `CLAUDE_PLUGIN_DATA`). */
  readonly env?: Readonly<Record<string, string>>;
  /** How the process starts (default the lean launcher: a hook's spawn is on a tool call's critical path). */
  readonly launcher?: ProcessLauncher;
}

/** Shells a hook may choose with `shell`. */
export type HookShell = 'bash' | 'sh' | 'powershell' | 'pwsh';

/** How each chosen shell runs a command string. */
const SHELL_INVOCATIONS: Readonly<Record<HookShell, (command: string) => { file: string; args: string[] }>> = {
  bash: (command) => ({ file: 'bash', args: ['-c', command] }),
  sh: (command) => ({ file: process.platform === 'win32' ? 'sh' : '/bin/sh', args: ['-c', command] }),
  powershell: (command) => ({ file: 'powershell', args: ['-NoProfile', '-NonInteractive', '-Command', command] }),
  pwsh: (command) => ({ file: 'pwsh', args: ['-NoProfile', '-NonInteractive', '-Command', command] }),
};

/** `${CLAUDE_PROJECT_DIR}` and `$CLAUDE_PROJECT_DIR` filled in (exec form has no shell to expand them). */
export function substituteProjectDir(text: string, projectDir: string): string {
  return text.replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g, () => projectDir);
}

/** Claude Code's default command-hook timeout up to 2.1.2 (docs/hooks.md §4.7: 60 s). */
export const COMMAND_HOOK_DEFAULT_TIMEOUT_MS = 60_000;

/**
 * A `"type": "command"` hook (docs/hooks.md §3): runs the command through the user's shell in the
 * session's cwd with the host's env plus `CLAUDE_PROJECT_DIR` and `HOOKWISE_SESSION_ID`,
 * writes the event JSON to stdin, and maps exit code + output exactly as Claude Code does
 * ({@link interpretCommandResult}). Aborting `ctx.signal` kills the whole process tree and
 * resolves `cancelled` with the output so far. Never throws.
 */
export class CommandHookAction implements HookAction {
  readonly kind = 'command';
  readonly label: string;
  /** Claude Code dedups command hooks by the exact command string. */
  readonly dedupKey: string;
  readonly defaultTimeoutMs = COMMAND_HOOK_DEFAULT_TIMEOUT_MS;

  constructor(
    readonly command: string,
    private readonly options: CommandHookOptions = {},
  ) {
    this.label = options.args !== undefined ? [command, ...options.args].join(' ') : command;
    // Two arg lists are two hooks, whatever their joined text looks like.
    this.dedupKey =
      options.args !== undefined ? JSON.stringify([command, ...options.args]) : options.shell !== undefined ? `${options.shell} ${command}` : command;
  }

  async run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    let prepared: PreparedSpawn;
    try {
      prepared = prepare(input, ctx);
    } catch (error) {
      return {
        status: 'failed',
        outcome: proceed(),
        error: `could not serialize the hook input as JSON: ${(error as Error).message}`,
        failureReason: 'inputNotSerializable',
      };
    }
    const env = this.options.env !== undefined ? { ...prepared.env, ...this.options.env } : prepared.env;
    const spawnOptions = { cwd: ctx.cwd, env, stdin: prepared.stdin, signal: ctx.signal, maxOutputBytes: this.options.maxOutputBytes };
    const { args, shell, launcher } = this.options;
    let run: ProcessRunResult;
    if (args !== undefined) {
      run = await runProgram(
        substituteProjectDir(this.command, ctx.projectDir),
        args.map((arg) => substituteProjectDir(arg, ctx.projectDir)),
        spawnOptions,
        launcher,
      );
    } else if (shell !== undefined) {
      const invocation = SHELL_INVOCATIONS[shell](this.command);
      run = await runProgram(invocation.file, invocation.args, spawnOptions, launcher);
    } else {
      run = await runShellCommand(this.command, spawnOptions, launcher);
    }
    const raw = rawOutput(run);
    if (run.spawnError !== undefined) return { status: 'failed', outcome: proceed(), error: run.spawnError, raw };
    if (run.aborted)
      return { status: 'cancelled', outcome: proceed(), error: 'cancelled: the hook was stopped (timeout or Stop) and its processes were killed', raw };
    const cut = {
      stdoutTruncated: run.stdoutTruncated,
      stderrTruncated: run.stderrTruncated,
      maxOutputBytes: this.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    };
    return { ...interpretCommandResult(ctx.event, run.exitCode, run.stdout, run.stderr, this.label, run.signal, cut), raw };
  }
}

interface PreparedSpawn {
  readonly stdin: string;
  readonly env: NodeJS.ProcessEnv;
  readonly projectDir: string;
  readonly sessionId: string;
  readonly extraEnv: HookActionContext['env'];
}

/**
 * The hooks of one event get the same input object: serialize it and copy process.env once
 * for all of them (a copy of the env costs more than the rest of a hook's set-up).
 */
const preparedByInput = new WeakMap<object, PreparedSpawn>();

function prepare(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): PreparedSpawn {
  const cached = preparedByInput.get(input);
  if (cached !== undefined && cached.projectDir === ctx.projectDir && cached.sessionId === ctx.sessionId && cached.extraEnv === ctx.env) return cached;
  const prepared: PreparedSpawn = {
    stdin: JSON.stringify(input),
    // Frozen: shared by every hook of this input, and recognised by the launcher without a compare.
    env: Object.freeze({ ...process.env, ...ctx.env, CLAUDE_PROJECT_DIR: ctx.projectDir, HOOKWISE_SESSION_ID: ctx.sessionId }),
    projectDir: ctx.projectDir,
    sessionId: ctx.sessionId,
    extraEnv: ctx.env,
  };
  preparedByInput.set(input, prepared);
  return prepared;
}

function rawOutput(run: ProcessRunResult): HookRawOutput {
  const raw: { -readonly [K in keyof HookRawOutput]: HookRawOutput[K] } = { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode };
  if (run.signal !== undefined) raw.signal = run.signal;
  if (run.stdoutTruncated) raw.stdoutTruncated = true;
  if (run.stderrTruncated) raw.stderrTruncated = true;
  return raw;
}
