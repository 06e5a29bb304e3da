import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { forEvent, type HookEnvelope } from '../hooks/hookContext';
import type { HookEventResult } from '../hooks/hookRunTypes';
import type { ElicitationHandler } from './mcpConnection';
import { hookSpecificValues } from '../agent/hookSpecificFields';

/** How an MCP elicitation is answered (MCP's `ElicitResult` fields). */
export interface ElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
}

const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/**
 * What Elicitation (or ElicitationResult) hooks made of an MCP server's request, as Claude
 * Code reads it: a block (exit 2, `decision: "block"`) declines; else the last hook's
 * `hookSpecificOutput.action` (with `content`) answers in place of the user (Elicitation) or
 * replaces the user's answer (ElicitationResult); undefined leaves it to the user.
 */
export function elicitationHookAnswer(result: HookEventResult): ElicitationAnswer | undefined {
  if (result.decision === 'deny' || result.decision === 'stop') return { action: 'decline' };
  const actions = hookSpecificValues(result, 'action').filter((a) => ACTIONS.has(a)) as ElicitationAnswer['action'][];
  const action = actions.at(-1);
  if (action === undefined) return undefined;
  const content = hookSpecificValues(result, 'content')
    .filter((c): c is Record<string, unknown> => c !== null && typeof c === 'object' && !Array.isArray(c))
    .at(-1);
  return content !== undefined && action === 'accept' ? { action, content } : { action };
}

/** What runs the elicitation hooks (the runtime's HookRunner). */
interface ElicitationHookRunner {
  run(
    event: 'Elicitation' | 'ElicitationResult',
    input: Readonly<Record<string, unknown>>,
    options: { readonly signal?: AbortSignal },
  ): Promise<HookEventResult>;
}

/**
 * An MCP server's `elicitation/create` through hooks, as Claude Code: Elicitation hooks
 * (matcher = the server name) may answer or decline for the user; otherwise `ask` (the VS Code
 * form; headless absent = decline) answers; then ElicitationResult hooks see the answer and may
 * replace it. `envelope` gives the current session's shared input fields.
 */
export function hookedElicitation(
  runner: ElicitationHookRunner,
  envelope: () => HookEnvelope | undefined,
  ask: ElicitationHandler | undefined,
): ElicitationHandler {
  return async (server, params, signal) => {
    const env: HookEnvelope = envelope() ?? {
      session_id: '',
      transcript_path: '',
      cwd: process.cwd(),
      permission_mode: 'default',
      agent_id: 'main',
      parent_agent_id: null,
      agent_type: 'main',
    };
    const form = params as ElicitRequest['params'] & { mode?: string; url?: string; elicitationId?: string; requestedSchema?: Record<string, unknown> };
    const mode = form.mode === 'url' ? 'url' : 'form';
    const shared = { mcp_server_name: server, mode, ...(form.elicitationId ? { elicitation_id: form.elicitationId } : {}) } as const;
    const asked = await runner.run(
      'Elicitation',
      forEvent('Elicitation', env, {
        ...shared,
        message: form.message,
        ...(form.url ? { url: form.url } : {}),
        ...(form.requestedSchema ? { requested_schema: form.requestedSchema } : {}),
      }),
      { signal },
    );
    let answer: ElicitationAnswer = elicitationHookAnswer(asked) ?? (ask ? await ask(server, params, signal) : { action: 'decline' });
    const result = await runner.run(
      'ElicitationResult',
      forEvent('ElicitationResult', env, { ...shared, action: answer.action, ...(answer.content ? { content: { ...answer.content } } : {}) }),
      { signal },
    );
    answer = elicitationHookAnswer(result) ?? answer;
    return (answer.content ? { action: answer.action, content: answer.content } : { action: answer.action }) as ElicitResult;
  };
}
