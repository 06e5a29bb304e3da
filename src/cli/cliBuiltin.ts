import type { BuiltinInvocation } from '../runtime/builtinCommands';
import { runBuiltinCommand } from '../runtime/builtinCommands';
import type { HookwiseRuntime } from '../runtime/hookwiseRuntime';
import type { SessionManager } from '../runtime/sessionManager';
import type { CliArgs } from './cliArgs';
import type { CliIo } from './runCli';

/**
 * `hookwise -p "/hooks"` and the other built-ins: runs the command (no model call), prints its
 * text (json / stream-json: one result object) and returns the exit code: 0 done, 1 refused.
 */
export async function runCliBuiltin(
  invocation: BuiltinInvocation,
  host: { readonly sessions: SessionManager; readonly runtime: HookwiseRuntime },
  args: Pick<CliArgs, 'outputFormat'>,
  io: CliIo,
  hookRuns: () => readonly unknown[],
): Promise<number> {
  const result = await runBuiltinCommand(invocation, host, io.signal);
  const sessionId = host.sessions.current?.id ?? null;
  if (args.outputFormat === 'json')
    io.stdout(
      `${JSON.stringify({ result: result.text, session_id: sessionId, num_turns: 0, is_error: !result.ok, status: result.ok ? 'completed' : 'failed', command: invocation.name, hook_runs: hookRuns() })}\n`,
    );
  else if (args.outputFormat === 'stream-json')
    io.stdout(
      `${JSON.stringify({ type: 'result', result: result.text, session_id: sessionId, is_error: !result.ok, status: result.ok ? 'completed' : 'failed', num_turns: 0 })}\n`,
    );
  else if (result.ok) io.stdout(`${result.text}\n`);
  else io.stderr(`hookwise: ${result.text}\n`);
  return result.ok ? 0 : 1;
}
