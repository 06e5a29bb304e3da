import { existsSync } from 'node:fs';

/** The program and arguments that run `command` through a shell. */
export interface ShellInvocation {
  readonly file: string;
  readonly args: readonly string[];
  readonly windowsVerbatimArguments?: boolean;
}

const POSIX_SHELL: ShellInvocation = { file: '/bin/sh', args: ['-c'] };
let windowsShell: ShellInvocation | undefined;

/**
 * The shell that runs hook commands: `/bin/sh -c` on POSIX; on Windows Git Bash when found
 * (as Claude Code does since 2.1.47, `CLAUDE_CODE_GIT_BASH_PATH` first), else `cmd.exe /d /s /c`.
 * Returns the invocation for `command`.
 */
export function resolveShell(command: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): ShellInvocation {
  if (platform !== 'win32') return { file: POSIX_SHELL.file, args: [...POSIX_SHELL.args, command] };
  windowsShell ??= findWindowsShell(env);
  if (windowsShell.windowsVerbatimArguments) return { ...windowsShell, args: [...windowsShell.args, `"${command}"`] };
  return { file: windowsShell.file, args: [...windowsShell.args, command] };
}

function findWindowsShell(env: NodeJS.ProcessEnv): ShellInvocation {
  const candidates = [
    env.CLAUDE_CODE_GIT_BASH_PATH,
    env.ProgramFiles && `${env.ProgramFiles}\\Git\\bin\\bash.exe`,
    env['ProgramFiles(x86)'] && `${env['ProgramFiles(x86)']}\\Git\\bin\\bash.exe`,
    env.LOCALAPPDATA && `${env.LOCALAPPDATA}\\Programs\\Git\\bin\\bash.exe`,
  ];
  for (const candidate of candidates) {
    if (candidate && existsSync(candidate)) return { file: candidate, args: ['-c'] };
  }
  return { file: env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c'], windowsVerbatimArguments: true };
}

/** Quotes `text` as one word for the shell {@link resolveShell} picks (POSIX sh / Git Bash, or cmd.exe). */
export function quoteForShell(text: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === 'win32' && resolveShell('', platform, env).windowsVerbatimArguments) return `"${text.replace(/"/g, '""')}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Claude Code's `CLAUDE_CODE_SHELL_PREFIX`: when set, every command (hooks and Bash) runs as
 * `<prefix> '<command>'`, so a wrapper can log or sandbox it.
 */
export function withShellPrefix(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const prefix = env.CLAUDE_CODE_SHELL_PREFIX?.trim();
  return prefix ? `${prefix} ${quoteForShell(command, platform, env)}` : command;
}
