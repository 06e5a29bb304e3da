import type { HookEvent } from './hookEvent';
import type { HookFailureReason } from './hookErrors';
import type { HookOutcome } from './hookOutcome';

/** The kinds of hook action (docs/hooks.md §3): shell command, LLM prompt, read-only agent, TS function. */
export type HookActionKind = 'command' | 'prompt' | 'agent' | 'http' | 'mcp_tool' | 'callable';

/**
 * Everything an action may need besides its input. The runner owns the timeout: it aborts
 * `signal` when the hook's time is up or the user pressed Stop, and the action must then
 * release everything it holds (a command kills its whole process tree) and return.
 */
export interface HookActionContext {
  readonly event: HookEvent;
  readonly signal: AbortSignal;
  /** The hook's own time budget, for actions that pass it on (model calls). */
  readonly timeoutMs: number;
  /** The session's working directory (command hooks run here). */
  readonly cwd: string;
  /** The workspace root, exported as `CLAUDE_PROJECT_DIR`. */
  readonly projectDir: string;
  readonly sessionId: string;
  /** Extra environment for process actions of this run, e.g. `CLAUDE_ENV_FILE` for SessionStart. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Raw output of a process-backed action, kept verbatim for the run record. */
export interface HookRawOutput {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code, or null when the process ended by a signal or never started. */
  readonly exitCode: number | null;
  readonly signal?: string;
  /** True when more was printed than the cap; the excess was dropped. */
  readonly stdoutTruncated?: boolean;
  readonly stderrTruncated?: boolean;
  /** True when the hook asked `suppressOutput`: its stdout is left out of the record (chat, transcript, Hook Runs). */
  readonly stdoutSuppressed?: boolean;
  /** http hooks: the URL and the response status (undefined when no response came); `stdout` holds the response body. */
  readonly http?: { readonly url: string; readonly status?: number };
}

/**
 * What an action returns. Actions never throw: a failure is `status: 'failed'` with a
 * message a user understands. `outcome` is only meaningful when `status` is `ok`.
 */
export interface HookActionResult {
  readonly status: 'ok' | 'failed' | 'cancelled';
  readonly outcome: HookOutcome;
  /** For failures: what went wrong, e.g. `exited with code 1: <stderr>`. */
  readonly error?: string;
  /** For failures: the kind, when more precise than `actionFailed` (the runner's default). */
  readonly failureReason?: HookFailureReason;
  readonly raw?: HookRawOutput;
  /** Plain (non-JSON) stdout of a successful command, e.g. context for SessionStart. */
  readonly plainOutput?: string;
  /**
   * Set when stdout began with `{` but did not parse (the parse error). Claude Code reads it
   * as plain text and proceeds; a hook with `continueOnFailure: false` fails closed instead.
   */
  readonly malformedJson?: string;
  /**
   * Set when the outcome came from valid JSON on an exit code other than 0 and 2 (the
   * failure it would otherwise be). Claude Code applies such JSON; a hook with
   * `continueOnFailure: false` fails closed instead unless the JSON itself blocks.
   */
  readonly jsonOnFailedExit?: string;
  /** Problems that did not fail the hook (unknown fields in its JSON output): shown on its run record. */
  readonly warnings?: readonly string[];
}

/**
 * Something that runs when a hook fires. `dedupKey` identifies identical handlers from
 * several sources (command string, prompt text) so they run once; callables have none.
 */
export interface HookAction {
  readonly kind: HookActionKind;
  /** Short label for the tree and the log: the command, the prompt, or the function name. */
  readonly label: string;
  readonly dedupKey?: string;
  /** Default timeout in ms when the registration sets none. */
  readonly defaultTimeoutMs: number;
  run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult>;
}
