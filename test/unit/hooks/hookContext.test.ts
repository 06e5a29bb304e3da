import { describe, expect, it } from 'vitest';
import { forEvent, hookContextSchemas, parseHookContext, withContextMetadata } from '../../../src/hooks/hookContext';
import { HOOK_EVENTS } from '../../../src/hooks/hookEvent';
import { env, preToolUse, stopInput } from './helpers';

const ENVELOPE_KEYS = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name'];

describe('hook contexts (docs/hooks.md §2)', () => {
  it('has a schema for every event', () => {
    expect(Object.keys(hookContextSchemas).sort()).toEqual([...HOOK_EVENTS].sort());
  });

  it('builds PreToolUse with exactly the snake_case fields, envelope first', () => {
    const ctx = preToolUse('Bash', { command: 'ls' });
    expect(Object.keys(ctx)).toEqual([...ENVELOPE_KEYS, 'tool_name', 'tool_input', 'tool_use_id', 'hookwise']);
    expect(ctx.hook_event_name).toBe('PreToolUse');
    expect(parseHookContext('PreToolUse', ctx).success).toBe(true);
    expect(Object.isFrozen(ctx) && Object.isFrozen(ctx.tool_input)).toBe(true);
  });

  it('builds each event’s extra fields and validates them strictly', () => {
    const post = forEvent('PostToolUse', env, {
      permission_mode: 'plan',
      tool_name: 'Read',
      tool_input: { file_path: '/x' },
      tool_use_id: 't',
      tool_response: { ok: 1 },
      duration_ms: 4,
    });
    expect(parseHookContext('PostToolUse', post).success).toBe(true);
    expect(Object.keys(stopInput())).toEqual([...ENVELOPE_KEYS, 'stop_hook_active', 'last_assistant_message', 'background_tasks', 'session_crons', 'hookwise']);
    expect(parseHookContext('PreCompact', forEvent('PreCompact', env, { trigger: 'auto', custom_instructions: null })).success).toBe(true);
    // One builder for every event, typed by the event's schema: a required field cannot be left out.
    // @ts-expect-error SessionStart's `source` is required
    expect(parseHookContext('SessionStart', forEvent('SessionStart', env)).success).toBe(false);
    // strict: an extra or a missing field is rejected
    expect(parseHookContext('Stop', { ...stopInput(), extra: 1 }).success).toBe(false);
    const { tool_use_id: _omit, ...missing } = preToolUse();
    expect(parseHookContext('PreToolUse', missing).success).toBe(false);
    expect(parseHookContext('SessionStart', { ...forEvent('SessionStart', env, { source: 'startup' }), source: 'bogus' }).success).toBe(false);
  });

  it('leaves permission_mode out where Claude Code does (under hookwise instead), and Hookwise-only event fields go under hookwise', () => {
    const start = forEvent('SessionStart', { ...env, permission_mode: 'plan' }, { source: 'startup' }, { model: 'm1' });
    expect(Object.keys(start)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'source', 'hookwise']);
    expect(start.hookwise).toEqual({ agent_id: env.agent_id, parent_agent_id: null, agent_type: env.agent_type, permission_mode: 'plan', model: 'm1' });
    expect(parseHookContext('SessionStart', start).success).toBe(true);
    for (const ctx of [
      forEvent('SessionEnd', env, { reason: 'other' }),
      forEvent('MessageDisplay', env, { turn_id: 't', message_id: 'm', index: 0, final: true, delta: 'x' }),
      forEvent('TaskCreated', env, { task_id: '1', task_subject: 's' }),
    ]) {
      expect(ctx, ctx.hook_event_name).not.toHaveProperty('permission_mode');
      expect(parseHookContext(ctx.hook_event_name, ctx).success).toBe(true);
    }
    const sub = forEvent('SubagentStart', { ...env, parent_agent_id: 'main' }, {}, { description: 'd', prompt: 'p' });
    expect(sub).not.toHaveProperty('description');
    expect(sub.hookwise).toMatchObject({ description: 'd', prompt: 'p', permission_mode: 'default' });
    expect(parseHookContext('SubagentStart', sub).success).toBe(true);
    expect(parseHookContext('SubagentStart', { ...sub, description: 'd' }).success).toBe(false);
    // Strict per event: another event's Hookwise-only field is refused.
    expect(parseHookContext('SessionEnd', { ...forEvent('SessionEnd', env, { reason: 'x' }), hookwise: { ...start.hookwise } }).success).toBe(false);
  });

  it('carries effort on tool-use events only, as Claude Code', () => {
    const withEffort = { ...env, effort: 'high' };
    expect(forEvent('PreToolUse', withEffort, { tool_name: 'Bash', tool_input: {}, tool_use_id: 't' })).toMatchObject({ effort: { level: 'high' } });
    expect(forEvent('Stop', withEffort, { stop_hook_active: false, last_assistant_message: '', background_tasks: [], session_crons: [] })).toMatchObject({
      effort: { level: 'high' },
    });
    expect(forEvent('UserPromptSubmit', withEffort, { prompt: 'p' })).not.toHaveProperty('effort');
    expect(forEvent('SessionEnd', withEffort, { reason: 'other' })).not.toHaveProperty('effort');
  });

  it('omits optional lifecycle fields that are not given', () => {
    expect(Object.keys(forEvent('AfterStep', env))).toEqual([...ENVELOPE_KEYS, 'hookwise']);
    expect(forEvent('AfterStep', env, { step_index: 2, step_type: 'final_response' })).toMatchObject({ step_index: 2, step_type: 'final_response' });
  });

  it('has agent_id / agent_type only inside a subagent (as Claude Code); Hookwise keeps its own agent fields under hookwise', () => {
    const main = forEvent('AfterStep', env);
    expect(main).not.toHaveProperty('agent_id');
    expect(main).not.toHaveProperty('agent_type');
    expect(main.hookwise).toEqual({ agent_id: env.agent_id, parent_agent_id: null, agent_type: env.agent_type });
    const sub = forEvent(
      'PreToolUse',
      { ...env, agent_id: 'agent-1', parent_agent_id: 'main', agent_type: 'Explore', prompt_id: () => 'p-1', effort: 'high' },
      { tool_name: 'Read', tool_input: {}, tool_use_id: 't' },
    );
    expect(Object.keys(sub).slice(0, 9)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'permission_mode',
      'prompt_id',
      'effort',
      'agent_id',
      'agent_type',
      'hook_event_name',
    ]);
    expect(sub).toMatchObject({ agent_id: 'agent-1', agent_type: 'Explore', prompt_id: 'p-1', effort: { level: 'high' } });
    expect(sub.hookwise).toEqual({ agent_id: 'agent-1', parent_agent_id: 'main', agent_type: 'Explore' });
    expect(parseHookContext('PreToolUse', sub).success).toBe(true);
  });

  it('every constructor produces a context its own schema accepts', () => {
    const samples = [
      forEvent('UserPromptSubmit', env, { prompt: 'hi' }),
      forEvent('PermissionRequest', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' }),
      forEvent('PostToolUseFailure', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: {}, tool_use_id: 't', error: 'x' }),
      forEvent('Notification', env, { message: 'm', notification_type: 'idle_prompt' }),
      forEvent('SubagentStart', { ...env, agent_id: 'a2', parent_agent_id: 'agent-main', agent_type: 'Explore' }),
      forEvent('SubagentStop', env, { stop_hook_active: true, last_assistant_message: 'x', background_tasks: [], session_crons: [] }),
      forEvent('SessionEnd', env, { reason: 'clear' }),
      forEvent('ExecutionStart', env),
      forEvent('ExecutionEnd', env),
      forEvent('BeforeStep', env, { step_index: 0 }),
      forEvent('BeforeInference', env),
      forEvent('AfterInference', env),
      forEvent('AgentFailed', env, { error: 'boom' }),
    ];
    for (const ctx of samples) expect(parseHookContext(ctx.hook_event_name, ctx).success, ctx.hook_event_name).toBe(true);
  });

  it("carries the run's metadata as the last key only when there is some, and a failed subagent's error on SubagentStop", () => {
    const ctx = forEvent('AfterStep', env, { step_index: 1 });
    expect(withContextMetadata(ctx, {})).toBe(ctx);
    const withMeta = withContextMetadata(ctx, { phase: 'review' });
    expect(Object.keys(withMeta).at(-1)).toBe('metadata');
    expect(Object.isFrozen(withMeta)).toBe(true);
    expect(parseHookContext('AfterStep', withMeta).success).toBe(true);
    expect(parseHookContext('AfterStep', { ...ctx, metadata: 'not a record' }).success).toBe(false);
    const failed = forEvent('SubagentStop', env, {
      stop_hook_active: false,
      last_assistant_message: '',
      background_tasks: [],
      session_crons: [],
      error: 'model error',
    });
    expect(parseHookContext('SubagentStop', failed)).toMatchObject({ success: true, data: { error: 'model error' } });
  });
});
