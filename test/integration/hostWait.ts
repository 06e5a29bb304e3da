import { workspaceRoot } from './configSupport';

/** Polls `check` every 50 ms until it holds; throws naming `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs `action` until `done` (at most 10 tries, 300 ms apart). */
export async function retry(action: () => Thenable<unknown>, done: () => boolean): Promise<void> {
  for (let i = 0; i < 10 && !done(); i++) {
    await action();
    if (!done()) await new Promise((r) => setTimeout(r, 300));
  }
}

/** A PreToolUse hook input for a Bash `command` in the test workspace, as the runner would build it. */
export function bashHookInput(sessionId: string, command: string, toolUseId: string): Record<string, unknown> {
  return {
    session_id: sessionId,
    transcript_path: '',
    cwd: workspaceRoot(),
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: toolUseId,
  };
}
