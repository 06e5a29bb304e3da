import path from 'node:path';
import type { HookAction, HookActionContext, HookActionResult, HookRawOutput } from '../hookAction';
import { proceed } from '../hookOutcome';
import type { ProcessLauncher, ProcessRunResult } from '../../shared/processLauncher';
import { runShellCommand } from '../../shared/processRunner';
import { thrownMessage } from '../../shared/describeThrown';
import type { FormatBinding, HookFormatAdapter } from './hookFormat';

/** Where and how a foreign command hook runs, besides its command. */
export interface FormatCommandOptions {
  /** Relative to the project root (or absolute); absent = the session's cwd. */
  readonly cwd?: string;
  /** The file's own env for this hook (Copilot `env`). */
  readonly env?: Readonly<Record<string, string>>;
  readonly launcher?: ProcessLauncher;
}

/**
 * A command hook of another agent's file: the adapter turns the Hookwise input into that agent's
 * stdin JSON and environment, the command runs through the user's shell (its process tree killed
 * on abort, as for `.claude` command hooks), and the adapter reads exit code and stdout the way
 * that agent does. Never throws: a problem is a `failed` result the runner fails open on, or
 * closed when the adapter says the agent does (the registration's continueOnFailure).
 */
export class FormatCommandAction implements HookAction {
  readonly kind = 'command';
  readonly label: string;
  /** Same command, same event of the same format: run once. Never merged with a `.claude` hook, whose semantics differ. */
  readonly dedupKey: string;
  readonly defaultTimeoutMs: number;

  constructor(
    private readonly adapter: HookFormatAdapter,
    private readonly binding: FormatBinding,
    readonly command: string,
    private readonly options: FormatCommandOptions = {},
  ) {
    this.label = command;
    this.dedupKey = `${binding.format}:${binding.nativeEvent}:${command}`;
    this.defaultTimeoutMs = adapter.defaultTimeoutMs(binding);
  }

  async run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    let stdin: string;
    let nativeEnv: Readonly<Record<string, string>>;
    try {
      const native = this.adapter.translateInput(this.binding, ctx.event, input, ctx);
      stdin = JSON.stringify(native.stdin);
      nativeEnv = native.env;
    } catch (error) {
      return {
        status: 'failed',
        outcome: proceed(),
        error: `could not build the ${this.adapter.displayName} hook input: ${thrownMessage(error)}`,
        failureReason: 'inputNotSerializable',
      };
    }
    const env = { ...process.env, ...ctx.env, HOOKWISE_SESSION_ID: ctx.sessionId, ...nativeEnv, ...this.options.env };
    const cwd = this.options.cwd !== undefined ? path.resolve(ctx.projectDir, this.options.cwd) : ctx.cwd;
    const run = await runShellCommand(this.command, { cwd, env, stdin, signal: ctx.signal }, this.options.launcher);
    const raw = rawOutput(run);
    if (run.spawnError !== undefined) return { status: 'failed', outcome: proceed(), error: run.spawnError, raw };
    if (run.aborted)
      return { status: 'cancelled', outcome: proceed(), error: 'cancelled: the hook was stopped (timeout or Stop) and its processes were killed', raw };
    const verdict = this.adapter.interpret({ event: ctx.event, binding: this.binding, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr, input });
    const warnings = verdict.warnings !== undefined && verdict.warnings.length > 0 ? { warnings: verdict.warnings } : {};
    if (verdict.status === 'failed') return { status: 'failed', outcome: proceed(), error: verdict.error, raw, ...warnings };
    return { status: 'ok', outcome: verdict.outcome, raw, ...warnings };
  }
}

function rawOutput(run: ProcessRunResult): HookRawOutput {
  return {
    stdout: run.stdout,
    stderr: run.stderr,
    exitCode: run.exitCode,
    ...(run.signal !== undefined ? { signal: run.signal } : {}),
    ...(run.stdoutTruncated ? { stdoutTruncated: true } : {}),
    ...(run.stderrTruncated ? { stderrTruncated: true } : {}),
  };
}
