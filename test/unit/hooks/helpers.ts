import type { HookAction, HookActionContext, HookActionResult } from '../../../src/hooks/hookAction';
import type { HookEnvelope } from '../../../src/hooks/hookContext';
import { forEvent } from '../../../src/hooks/hookContext';
import type { HookOutcome } from '../../../src/hooks/hookOutcome';
import type { HookSource } from '../../../src/configFiles/hookSource';

export const env: HookEnvelope = {
  session_id: 's-1',
  transcript_path: '/tmp/s-1.jsonl',
  cwd: '/work/project',
  agent_id: 'agent-main',
  parent_agent_id: null,
  agent_type: 'main',
};

export const codeSource: HookSource = { kind: 'code', label: 'test' };

export function fileSource(jsonPath: string): HookSource {
  return { kind: 'file', scope: 'project', file: '/work/project/.claude/settings.json', displayFile: '.claude/settings.json', jsonPath };
}

export function preToolUse(toolName = 'Bash', toolInput: Record<string, unknown> = { command: 'ls' }, envelope: HookEnvelope = env) {
  return forEvent('PreToolUse', envelope, { permission_mode: 'default', tool_name: toolName, tool_input: toolInput, tool_use_id: 'tu-1' });
}

export function stopInput() {
  return forEvent('Stop', env, { stop_hook_active: false, last_assistant_message: 'done', background_tasks: [], session_crons: [] });
}

/** A non-callable action (like a command hook) that answers after `delayMs`. */
export function fakeAction(options: {
  label: string;
  outcome?: HookOutcome;
  delayMs?: number;
  dedupKey?: string;
  /** Never settles unless aborted (and not even then when `ignoreSignal`). */
  hang?: boolean;
  ignoreSignal?: boolean;
  result?: Partial<HookActionResult>;
  onRun?: (input: Readonly<Record<string, unknown>>, ctx: HookActionContext) => void;
}): HookAction & { runs: number } {
  const action = {
    kind: 'command' as const,
    label: options.label,
    ...(options.dedupKey !== undefined ? { dedupKey: options.dedupKey } : {}),
    defaultTimeoutMs: 5_000,
    runs: 0,
    run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
      action.runs++;
      options.onRun?.(input, ctx);
      return new Promise<HookActionResult>((resolve) => {
        const done = (): void => resolve({ status: 'ok', outcome: options.outcome ?? {}, ...options.result });
        if (options.hang) {
          if (!options.ignoreSignal) ctx.signal.addEventListener('abort', () => resolve({ status: 'cancelled', outcome: {} }));
          return;
        }
        setTimeout(done, options.delayMs ?? 0);
      });
    },
  };
  return action;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
