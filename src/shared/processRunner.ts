import { leanLauncher } from './leanLauncher';
import type { ProcessLauncher, ProcessRunOptions, ProcessRunResult } from './processLauncher';
import { resolveShell, withShellPrefix } from './shellInvocation';

/**
 * Runs one command string through the user's shell, the way Claude Code runs hook commands:
 * stdin gets a string then EOF, stdout/stderr are captured up to a byte cap each, and an
 * AbortSignal or timeout kills the whole process tree. Never throws: every problem is in the
 * result. `launcher` picks how processes start (processLauncher.ts); default the lean one.
 *
 * The pieces: shellInvocation.ts (which shell, quoting, CLAUDE_CODE_SHELL_PREFIX),
 * processLauncher.ts (the port), leanLauncher.ts and execaLauncher.ts (its two
 * implementations), processRun.ts (the lifecycle both share), processGroups.ts (live process
 * groups, killed with the host).
 */
export function runShellCommand(command: string, options: ProcessRunOptions, launcher: ProcessLauncher = leanLauncher): Promise<ProcessRunResult> {
  return launcher.launch(resolveShell(withShellPrefix(command, options.env ?? process.env)), options, 'shell');
}

/**
 * Runs `file` with `args` directly, without a shell (exec-form hooks, a hook's chosen
 * `shell`, ripgrep), with the same capture, caps, process-group and abort handling as
 * {@link runShellCommand}. Never rejects.
 */
export function runProgram(
  file: string,
  args: readonly string[],
  options: ProcessRunOptions,
  launcher: ProcessLauncher = leanLauncher,
): Promise<ProcessRunResult> {
  return launcher.launch({ file, args }, options, 'program');
}
