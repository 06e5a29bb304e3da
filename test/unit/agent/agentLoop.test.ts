import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CONSECUTIVE_STOP_BLOCKS } from '../../../src/agent/agentStopCheck';
import { addContext, block, continueWith, modifyInput, stop } from '../../../src/hooks/hookOutcome';
import type { AgentHarness } from './agentHarness';
import { bash, makeAgentHarness, recordEvents } from './agentHarness';

const LOOP_EVENTS = [
  'ExecutionStart',
  'BeforeStep',
  'BeforeInference',
  'AfterInference',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'AfterStep',
  'Stop',
  'ExecutionEnd',
  'AgentFailed',
];

let h: AgentHarness;
beforeEach(async () => {
  h = await makeAgentHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('runAgent lifecycle', () => {
  it('fires every loop event in skeleton order for a tool step followed by a final answer', async () => {
    const seen = recordEvents(h.hooks, LOOP_EVENTS);
    const { result } = await h.run([{ text: 'Listing.', ...bash('echo hi') }, { text: 'Done.' }], { mode: 'bypassPermissions' });

    expect(result).toMatchObject({ status: 'completed', finalText: 'Done.', steps: 2 });
    expect(seen).toEqual([
      'ExecutionStart',
      'BeforeStep',
      'BeforeInference',
      'AfterInference',
      'PreToolUse',
      'PostToolUse',
      'AfterStep',
      'BeforeStep',
      'BeforeInference',
      'AfterInference',
      'AfterStep',
      'Stop',
      'ExecutionEnd',
    ]);
  });

  it('gives hooks the tool result and the real tool input on PostToolUse', async () => {
    const posts: { input: unknown; response: unknown }[] = [];
    h.hooks.onPostToolUse((ctx) => void posts.push({ input: ctx.tool_input, response: ctx.tool_response }));
    await h.run([bash('echo hello-from-bash'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(posts).toHaveLength(1);
    expect(posts[0]?.input).toMatchObject({ command: 'echo hello-from-bash' });
    expect(JSON.stringify(posts[0]?.response)).toContain('hello-from-bash');
  });

  it('reports ExecutionEnd with the status and the final text', async () => {
    const ends: unknown[] = [];
    h.hooks.onExecutionEnd((ctx) => void ends.push({ status: ctx.status, final_text: ctx.final_text, steps: ctx.steps }));
    await h.run([{ text: 'All good.' }]);
    expect(ends).toEqual([{ status: 'completed', final_text: 'All good.', steps: 1 }]);
  });
});

describe('PreToolUse decisions reach the model', () => {
  it('a denied call returns an error tool result with the reason, fires no PostToolUseFailure (Claude Code fires nothing there), and the command does not run', async () => {
    const victim = path.join(h.dir, 'keep.txt');
    writeFileSync(victim, 'precious');
    h.hooks.onPreToolUse((ctx) => (String(ctx.tool_input.command).startsWith('rm') ? block('rm is not allowed here; use git clean') : undefined), {
      matcher: 'Bash',
    });
    const failures: { error: string; tool: string }[] = [];
    h.hooks.onPostToolUseFailure((ctx) => void failures.push({ error: ctx.error, tool: ctx.tool_name }));
    const posts = recordEvents(h.hooks, ['PostToolUse']);

    const { result, model } = await h.run([bash('rm keep.txt', 'call-rm'), { text: 'I will not delete it.' }], { mode: 'bypassPermissions' });

    expect(result.status).toBe('completed');
    expect(existsSync(victim)).toBe(true);
    const [toolResult] = model.toolResultsOf(1);
    expect(toolResult).toMatchObject({ toolCallId: 'call-rm', isError: true });
    expect(toolResult?.content).toContain('rm is not allowed here; use git clean');
    expect(failures).toEqual([]);
    expect(posts).toEqual([]);
  });

  it('updatedInput is what runs and what PostToolUse sees', async () => {
    h.hooks.onPreToolUse(() => modifyInput({ command: 'echo rewritten > out.txt' }), { matcher: 'Bash' });
    const seenByPost: unknown[] = [];
    h.hooks.onPostToolUse((ctx) => void seenByPost.push(ctx.tool_input.command));

    await h.run([bash('echo original > out.txt'), { text: 'done' }], { mode: 'bypassPermissions' });

    expect(readFileSync(path.join(h.dir, 'out.txt'), 'utf8').trim()).toBe('rewritten');
    expect(seenByPost).toEqual(['echo rewritten > out.txt']);
  });

  it('additionalContext from PreToolUse and PostToolUse reaches the model on its next call, not before', async () => {
    writeFileSync(path.join(h.dir, 'a.txt'), 'x');
    h.hooks.onPreToolUse(() => addContext('PRE-CONTEXT-7'));
    h.hooks.onPostToolUse(() => addContext('POST-CONTEXT-9'));
    const { model } = await h.run([{ toolCalls: [{ name: 'Read', input: { file_path: 'a.txt' } }] }, { text: 'done' }]);

    expect(model.textOf(0)).not.toContain('PRE-CONTEXT-7');
    expect(model.textOf(1)).toContain('PRE-CONTEXT-7');
    expect(model.textOf(1)).toContain('POST-CONTEXT-9');
  });

  it('a PostToolUse block keeps the result and tells the model the reason', async () => {
    h.hooks.onPostToolUse(() => block('lint failed: fix src/a.ts'));
    const { model } = await h.run([bash('echo built'), { text: 'fixing' }], { mode: 'bypassPermissions' });
    const content = model.toolResultsOf(1)[0]?.content ?? '';
    expect(content).toContain('built');
    expect(content).toContain('lint failed: fix src/a.ts');
  });
});

describe('Stop hooks', () => {
  it('a Stop block forces one more step with the reason, and stop_hook_active is true on the next Stop', async () => {
    const active: boolean[] = [];
    h.hooks.onStop((ctx) => {
      active.push(ctx.stop_hook_active);
      return ctx.stop_hook_active ? undefined : continueWith('run the tests first');
    });
    const { result, model } = await h.run([{ text: 'Done early.' }, { text: 'Tests pass, done.' }]);

    expect(model.requests).toHaveLength(2);
    expect(model.textOf(1)).toContain('run the tests first');
    expect(active).toEqual([false, true]);
    expect(result).toMatchObject({ status: 'completed', finalText: 'Tests pass, done.' });
  });

  it('stop_hook_active stays true on the next Stop when the model used tools after the block', async () => {
    const active: boolean[] = [];
    h.hooks.onStop((ctx) => {
      active.push(ctx.stop_hook_active);
      return ctx.stop_hook_active ? undefined : continueWith('run the tests first');
    });
    const { result, model } = await h.run(
      [{ text: 'Done early.' }, { text: 'Running tests.', ...bash('echo tests pass') }, { text: 'Tests pass.' }, { text: 'never' }],
      { mode: 'bypassPermissions' },
    );
    expect(active).toEqual([false, true]);
    expect(model.requests).toHaveLength(3);
    expect(result).toMatchObject({ status: 'completed', finalText: 'Tests pass.' });
  });

  it('counts Stop blocks across tool steps, so a hook that always blocks cannot keep the agent busy forever', async () => {
    h.hooks.onStop(() => continueWith('keep going'));
    const turns = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? { text: `attempt ${i}` } : bash('true')));
    const { result } = await h.run(turns, { mode: 'bypassPermissions', limits: { maxSteps: 30 } });
    expect(result.status).toBe('completed');
    expect(result.reason).toMatch(/8 consecutive times/);
  });

  it('a Stop hook that blocks with deny (exit-2 style) also forces continuation', async () => {
    let calls = 0;
    h.hooks.onStop(() => (calls++ === 0 ? block('not finished') : undefined));
    const { model } = await h.run([{ text: 'a' }, { text: 'b' }]);
    expect(model.requests).toHaveLength(2);
    expect(model.textOf(1)).toContain('not finished');
  });

  it(`stops anyway after ${MAX_CONSECUTIVE_STOP_BLOCKS} consecutive Stop blocks and says why`, async () => {
    h.hooks.onStop(() => continueWith('keep going'));
    const turns = Array.from({ length: 12 }, (_, i) => ({ text: `attempt ${i + 1}` }));
    const { result, model, events } = await h.run(turns, { limits: { maxSteps: 20 } });

    expect(model.requests).toHaveLength(MAX_CONSECUTIVE_STOP_BLOCKS);
    expect(result.status).toBe('completed');
    expect(result.reason).toMatch(/8 consecutive times/);
    expect(events.some((e) => e.type === 'systemMessage' && /8 consecutive times/.test(e.text))).toBe(true);
  });
});

describe('stopping the run', () => {
  it('a PreToolUse stop (continue:false) ends the run with its reason and the tool never runs', async () => {
    h.hooks.onPreToolUse(() => stop('budget exhausted'));
    const { result, model } = await h.run([bash('echo x > ran.txt'), { text: 'never' }], { mode: 'bypassPermissions' });
    expect(result).toMatchObject({ status: 'stopped', reason: 'budget exhausted' });
    expect(existsSync(path.join(h.dir, 'ran.txt'))).toBe(false);
    expect(model.requests).toHaveLength(1);
  });

  it('a BeforeStep stop ends the run before the model is called', async () => {
    h.hooks.onBeforeStep(() => stop('maintenance window'));
    const { result, model } = await h.run([{ text: 'hi' }]);
    expect(result).toMatchObject({ status: 'stopped', reason: 'maintenance window' });
    expect(model.requests).toHaveLength(0);
  });

  it('the built-in max steps hook stops a runaway loop with a reason naming the setting', async () => {
    writeFileSync(path.join(h.dir, 'a.txt'), 'x');
    const read = { toolCalls: [{ name: 'Read', input: { file_path: 'a.txt' } }] };
    const { result, model } = await h.run([read, read, read, read, read], { limits: { maxSteps: 2 } });
    expect(model.requests).toHaveLength(2);
    expect(result.status).toBe('stopped');
    expect(result.reason).toContain('maximum of 2 steps');
    expect(h.records.some((r) => r.hookLabel === 'built-in: max steps' && r.status === 'blocked')).toBe(true);
  });

  it('an abort while a PreToolUse hook is still deciding cancels the run; the tool never runs', async () => {
    const controller = new AbortController();
    h.hooks.onPreToolUse(() => {
      setTimeout(() => controller.abort(), 20);
      return new Promise<undefined>(() => undefined); // never decides
    });
    const { result } = await h.run([bash('touch ran.txt'), { text: 'never' }], { mode: 'bypassPermissions', signal: controller.signal });
    expect(result.status).toBe('cancelled');
    expect(existsSync(path.join(h.dir, 'ran.txt'))).toBe(false);
  });

  it('an abort while a tool runs ends the run as cancelled and answers the call', async () => {
    const controller = new AbortController();
    h.hooks.onPreToolUse(() => void setTimeout(() => controller.abort(), 50));
    const { result, conversation } = await h.run([bash('sleep 5; echo late > late.txt'), { text: 'never' }], {
      mode: 'bypassPermissions',
      signal: controller.signal,
    });
    expect(result.status).toBe('cancelled');
    expect(existsSync(path.join(h.dir, 'late.txt'))).toBe(false);
    const last = conversation.messages.at(-1);
    expect(last?.role).toBe('tool');
  });
});

describe('bad tool calls never reach PreToolUse', () => {
  it('invalid JSON arguments become an error result the model can correct, with no PreToolUse', async () => {
    const pre = recordEvents(h.hooks, ['PreToolUse']);
    const { result, model } = await h.run([{ toolCalls: [{ id: 'bad', name: 'Bash', arguments: '{"command": "ls' }] }, { text: 'sorry' }], {
      mode: 'bypassPermissions',
    });
    expect(result.status).toBe('completed');
    expect(pre).toEqual([]);
    expect(model.toolResultsOf(1)).toEqual([{ toolCallId: 'bad', isError: true, content: expect.stringContaining('not valid JSON') }]);
  });

  it('an unknown tool is answered with the list of available tools', async () => {
    const pre = recordEvents(h.hooks, ['PreToolUse']);
    const { model } = await h.run([{ toolCalls: [{ name: 'Frobnicate', input: {} }] }, { text: 'ok' }]);
    expect(pre).toEqual([]);
    const content = model.toolResultsOf(1)[0]?.content ?? '';
    expect(content).toContain('Unknown tool "Frobnicate"');
    expect(content).toContain('Bash');
  });

  it('input that fails the tool schema is an error result and runs no hook', async () => {
    const pre = recordEvents(h.hooks, ['PreToolUse', 'PostToolUseFailure']);
    const { model } = await h.run([{ toolCalls: [{ name: 'Bash', input: { cmd: 'ls' } }] }, { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(pre).toEqual([]);
    expect(model.toolResultsOf(1)[0]).toMatchObject({ isError: true, content: expect.stringContaining('command') });
  });
});
