import { z } from 'zod';
import { statSync } from 'node:fs';
import { execaLauncher } from '../../shared/execaLauncher';
import { runShellCommand } from '../../shared/processRunner';
import { quoteForShell, resolveShell } from '../../shared/shellInvocation';
import type { ProcessLauncher, ProcessRunResult } from '../../shared/processLauncher';
import { trackCwd } from './shellCwd';
import { truncateMiddle } from './truncate';
import { defineTool, toolError } from './tool';
import type { AgentTool } from './tool';

/** Default time limit of one command, in ms (Claude Code's). */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
/** Largest `timeout` a call may ask for, in ms (Claude Code's). */
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Characters of combined output the model sees; the middle of longer output is cut. */
export const BASH_MAX_OUTPUT_CHARS = 30_000;
/** Bytes kept per stream by the process runner (memory bound; the rest is dropped there). */
const BASH_CAPTURE_BYTES = 1024 * 1024;

export const bashInputSchema = z.object({
  command: z
    .string()
    .refine((c) => c.trim() !== '', 'must not be empty')
    .describe('The shell command to run.'),
  description: z.string().optional().describe('A short description of what the command does, in 5-10 words, for the user.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(BASH_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Time limit in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}).`),
});
export type BashInput = z.infer<typeof bashInputSchema>;

/**
 * Claude Code's Bash `tool_response`, key for key: `stdout` without its trailing newlines.
 * PostToolUse only sees commands that exited 0 (a failure is PostToolUseFailure's `error`).
 */
export interface BashResponse {
  readonly stdout: string;
  readonly stderr: string;
  readonly interrupted: boolean;
  readonly isImage: boolean;
  readonly noOutputExpected: boolean;
}

/** Options of `createBashTool`. */
export interface BashToolOptions {
  /** How commands start (default execa: a user's command runs long, so its per-spawn cost is noise). */
  readonly launcher?: ProcessLauncher;
  /** Extra variables over `process.env` for every command. */
  readonly env?: Readonly<Record<string, string>>;
  /** Characters of output shown to the model (default `BASH_MAX_OUTPUT_CHARS`). */
  readonly maxOutputChars?: number;
}

const DESCRIPTION = `Runs a shell command in the working directory and returns its output (stdout, then stderr) and, when non-zero, its exit code.
- The working directory carries over between calls (after cd, the next command starts there; it stays inside the workspace). Exports and shell variables do not carry over.
- Time limit: timeout in ms (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}); the whole process tree is killed when it is reached or the user stops the run.
- Background processes (cmd &) are killed when the command returns; nothing keeps running after the call.
- stdin is empty: interactive commands will not get input. Output beyond ${BASH_MAX_OUTPUT_CHARS} characters is cut in the middle.
- Prefer Read, Glob, Grep, Edit and Write over cat, find, grep, sed and echo >.`;

/**
 * The `Bash` tool, on the shared process runner (user's shell, capped capture,
 * process-tree kill). A non-zero exit, a timeout and an interruption are error results;
 * the tool never throws. Asks by default.
 */
export function createBashTool(options: BashToolOptions = {}): AgentTool<BashInput> {
  const launcher = options.launcher ?? execaLauncher;
  const maxChars = options.maxOutputChars ?? BASH_MAX_OUTPUT_CHARS;
  return defineTool({
    name: 'Bash',
    description: DESCRIPTION,
    inputSchema: bashInputSchema,
    readOnly: false,
    needsApproval: true,
    summarize: (input) => input.command,
    async execute(input, ctx) {
      const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS;
      const shell = ctx.shellCwd;
      // Where the shell ends up is written to a side file (cmd.exe cannot: there every command starts in cwd).
      const tracker = shell && !resolveShell('').windowsVerbatimArguments ? trackCwd(withSessionEnv(input.command, ctx.envFile)) : undefined;
      const result = await runShellCommand(
        tracker?.command ?? withSessionEnv(input.command, ctx.envFile),
        {
          cwd: shell?.current ?? ctx.cwd,
          env: options.env ? { ...process.env, ...options.env } : process.env,
          stdin: '',
          maxOutputBytes: BASH_CAPTURE_BYTES,
          signal: ctx.signal,
          timeoutMs,
        },
        launcher,
      );
      // A stopped or timed-out command keeps the directory it started in (whatever its shell reported while dying).
      const ended = tracker?.read();
      const moved = shell && !result.aborted ? shell.update(ended) : undefined;
      if (result.spawnError !== undefined) return toolError(`Could not run the command: ${result.spawnError}`);

      const timedOut = result.timedOut === true;
      const interrupted = result.aborted && !timedOut;
      const data: BashResponse = {
        stdout: result.stdout.replace(/(\r?\n)+$/, ''),
        stderr: result.stderr.replace(/(\r?\n)+$/, ''),
        interrupted,
        isImage: false,
        noOutputExpected: false,
      };
      const content = formatForModel(result, { interrupted, timedOut: result.aborted && timedOut }, timeoutMs, maxChars);
      return { content: moved?.note ? `${content}\n${moved.note}` : content, isError: isFailure(result), data };
    },
  });
}

/**
 * Sources the session's CLAUDE_ENV_FILE before the command when a SessionStart hook wrote to
 * it (POSIX shells only: cmd.exe cannot source a shell file).
 */
function withSessionEnv(command: string, envFile: string | undefined): string {
  if (envFile === undefined || resolveShell('').windowsVerbatimArguments) return command;
  try {
    if (statSync(envFile).size === 0) return command;
  } catch {
    return command;
  }
  return `. ${quoteForShell(envFile)}\n${command}`;
}

function isFailure(result: ProcessRunResult): boolean {
  return result.aborted || result.exitCode !== 0;
}

/** stdout then stderr, cut in the middle when long, then one note per way the run went wrong. */
function formatForModel(result: ProcessRunResult, data: { interrupted: boolean; timedOut: boolean }, timeoutMs: number, maxChars: number): string {
  const parts = [result.stdout.trimEnd(), result.stderr.trimEnd()].filter((p) => p !== '');
  const { text, cut } = truncateMiddle(parts.join('\n'), maxChars);
  const notes: string[] = [];
  if (result.stdoutTruncated || result.stderrTruncated) notes.push(`(output beyond ${BASH_CAPTURE_BYTES / 1024 / 1024} MiB per stream was dropped)`);
  if (cut > 0) notes.push(`(output truncated: ${cut} characters cut from the middle)`);
  if (data.timedOut) notes.push(`(timed out after ${formatSeconds(timeoutMs)}; the process tree was killed)`);
  else if (data.interrupted) notes.push('(interrupted)');
  else if (result.exitCode === null) notes.push(`(killed by signal ${result.signal ?? 'unknown'})`);
  // A plain non-zero exit reads as Claude Code's: `Exit code N`, then stdout, then stderr.
  const exitLine = !data.timedOut && !data.interrupted && result.exitCode !== null && result.exitCode !== 0 ? `Exit code ${result.exitCode}` : '';
  if (text === '' && notes.length === 0 && exitLine === '') return '(no output)';
  return [exitLine, text, ...notes].filter((p) => p !== '').join('\n');
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
}
