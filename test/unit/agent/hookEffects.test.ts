import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigPermissionRules } from '../../../src/permissions/configPermissionRules';
import { addContext, block, modifyResult, stop } from '../../../src/hooks/hookOutcome';
import { ModelError } from '../../../src/model/modelError';
import type { ModelClient } from '../../../src/model/modelClient';
import type { AgentHarness } from './agentHarness';
import { bash, makeAgentHarness, RecordingProvider, recordEvents } from './agentHarness';

let h: AgentHarness;
beforeEach(async () => {
  h = await makeAgentHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('what hooks add reaches the model', () => {
  it('ExecutionStart additionalContext is in the first model call', async () => {
    h.hooks.onExecutionStart(() => addContext('Repository rules: never push to main.'));
    const { model } = await h.run([{ text: 'ok' }]);
    expect(model.textOf(0)).toContain('Repository rules: never push to main.');
  });

  it('BeforeInference messagesToInject are appended before that model call', async () => {
    h.hooks.onBeforeInference((ctx) => (ctx.step_index === 2 ? { messagesToInject: [{ role: 'user', content: 'INJECTED-AT-STEP-2' }] } : undefined));
    const { model } = await h.run([bash('true'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(model.textOf(0)).not.toContain('INJECTED-AT-STEP-2');
    expect(model.messagesOf(1).at(-1)).toEqual({ role: 'user', content: 'INJECTED-AT-STEP-2' });
  });

  it('PostToolUseFailure additionalContext reaches the model after a failed tool', async () => {
    h.hooks.onPostToolUseFailure(() => addContext('Hint: the file lives in docs/.'));
    const { model } = await h.run([{ toolCalls: [{ name: 'Read', input: { file_path: 'missing.md' } }] }, { text: 'ok' }]);
    expect(model.toolResultsOf(1)[0]?.isError).toBe(true);
    expect(model.textOf(1)).toContain('Hint: the file lives in docs/.');
  });

  it('a PostToolUse updatedResult replaces what the model sees', async () => {
    h.hooks.onPostToolUse(() => modifyResult('[output redacted by policy]'));
    const { model } = await h.run([bash('echo SECRET-TOKEN'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(model.toolResultsOf(1)[0]?.content).toBe('[output redacted by policy]');
    expect(model.textOf(1)).not.toContain('SECRET-TOKEN');
  });

  it.each(['PreToolUse', 'PostToolUse'] as const)('a %s systemMessage is shown to the user and never sent to the model', async (event) => {
    h.hooks.on(event, () => ({ systemMessage: `USER-ONLY-NOTE from ${event}` }));
    const { model, events } = await h.run([bash('true'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'systemMessage', text: `USER-ONLY-NOTE from ${event}` }));
    expect(model.textOf(1)).not.toContain('USER-ONLY-NOTE');
  });

  it('a Stop systemMessage is shown to the user', async () => {
    h.hooks.onStop(() => ({ systemMessage: 'Reminder: open a PR' }));
    const { events } = await h.run([{ text: 'ok' }]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'systemMessage', text: 'Reminder: open a PR' }));
  });
});

describe('several tool calls in one step', () => {
  it('each call is judged on its own: one denied, the other runs, both answered in order', async () => {
    h.hooks.onPreToolUse((ctx) => (String(ctx.tool_input.command).includes('bad') ? block('not that one') : undefined));
    const { model } = await h.run(
      [
        {
          toolCalls: [
            { id: 'a', name: 'Bash', input: { command: 'touch bad.txt' } },
            { id: 'b', name: 'Bash', input: { command: 'touch good.txt' } },
          ],
        },
        { text: 'ok' },
      ],
      { mode: 'bypassPermissions' },
    );
    expect(existsSync(path.join(h.dir, 'bad.txt'))).toBe(false);
    expect(existsSync(path.join(h.dir, 'good.txt'))).toBe(true);
    expect(model.toolResultsOf(1).map((r) => [r.toolCallId, r.isError === true])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('a stop on the first call ends the run and still answers the second call (the conversation stays valid)', async () => {
    h.hooks.onPreToolUse(() => stop('halt'));
    const { result, conversation } = await h.run(
      [
        {
          toolCalls: [
            { id: 'a', name: 'Bash', input: { command: 'true' } },
            { id: 'b', name: 'Bash', input: { command: 'true' } },
          ],
        },
      ],
      { mode: 'bypassPermissions' },
    );
    expect(result.status).toBe('stopped');
    const answered = conversation.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
    expect(answered).toEqual(['a', 'b']);
  });
});

describe('approvals for the session', () => {
  it('"Allow for this session" grants the suggested rule: the same kind of command is not asked again', async () => {
    const sessionRules = new ConfigPermissionRules([], { projectRoot: h.dir });
    const provider = new RecordingProvider(() => ({ decision: 'allow', scope: 'session' }));
    const { result } = await h.run([bash('touch one.txt'), bash('touch two.txt'), { text: 'ok' }], {
      provider,
      rules: new ConfigPermissionRules([], { projectRoot: h.dir }),
      sessionRules,
    });
    expect(result.status).toBe('completed');
    expect(provider.requests).toHaveLength(1);
    expect(existsSync(path.join(h.dir, 'two.txt'))).toBe(true);
  });

  it('a rule the person picked (Edit(src/**)) is granted instead of the suggested one: the next file under src/ is not asked', async () => {
    const sessionRules = new ConfigPermissionRules([], { projectRoot: h.dir });
    const provider = new RecordingProvider(() => ({ decision: 'allow', scope: 'session', rule: 'Edit(src/**)' }));
    const write = (file: string): { toolCalls: { name: string; input: Record<string, unknown> }[] } => ({
      toolCalls: [{ name: 'Write', input: { file_path: file, content: 'x' } }],
    });
    const { result } = await h.run([write('src/one.txt'), write('src/two.txt'), write('other.txt'), { text: 'ok' }], {
      provider,
      rules: new ConfigPermissionRules([], { projectRoot: h.dir }),
      sessionRules,
    });
    expect(result.status).toBe('completed');
    expect(provider.requests.map((r) => r.suggestedRule)).toEqual(['Edit(src/one.txt)', 'Edit(other.txt)']);
    expect(existsSync(path.join(h.dir, 'src', 'two.txt'))).toBe(true);
  });

  it('"Allow once" asks again for the next call', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'allow', scope: 'once' }));
    await h.run([bash('touch one.txt'), bash('touch two.txt'), { text: 'ok' }], {
      provider,
      sessionRules: new ConfigPermissionRules([], { projectRoot: h.dir }),
    });
    expect(provider.requests).toHaveLength(2);
  });
});

describe('PermissionRequest rewriting the input', () => {
  // docs/hooks.md §1: PermissionRequest may "decide instead of the user (allow + updatedInput / deny)".
  it('an allow with updatedInput runs the rewritten input', async () => {
    h.hooks.onPermissionRequest(() => ({ decision: 'allow', updatedInput: { command: 'touch safe.txt' } }));
    await h.run([bash('touch risky.txt'), { text: 'ok' }], { provider: new RecordingProvider(() => ({ decision: 'deny' })) });
    expect(existsSync(path.join(h.dir, 'risky.txt'))).toBe(false);
    expect(existsSync(path.join(h.dir, 'safe.txt'))).toBe(true);
  });

  it('a rewrite into an invalid input is refused, not run', async () => {
    h.hooks.onPermissionRequest(() => ({ decision: 'allow', updatedInput: { command: 42 } }));
    const { result } = await h.run([bash('touch risky.txt'), { text: 'ok' }], { provider: new RecordingProvider(() => ({ decision: 'allow' })) });
    expect(result.status).toBe('completed');
    expect(existsSync(path.join(h.dir, 'risky.txt'))).toBe(false);
  });
});

describe('failures', () => {
  it('a model error ends the run as failed with the message, and AgentFailed and ExecutionEnd fire', async () => {
    const seen = recordEvents(h.hooks, ['AgentFailed', 'ExecutionEnd']);
    const broken: ModelClient = {
      label: 'broken',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new ModelError('auth', 'The model endpoint rejected the API key (401).');
      },
    };
    const { result } = await h.run([], { model: broken });
    expect(result).toMatchObject({ status: 'failed', reason: expect.stringContaining('rejected the API key') });
    expect(seen).toEqual(['AgentFailed', 'ExecutionEnd']);
  });

  it('a hook that throws is fail-open: the tool still runs', async () => {
    h.hooks.onPreToolUse(() => {
      throw new Error('hook bug');
    });
    await h.run([bash('touch ran.txt'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(existsSync(path.join(h.dir, 'ran.txt'))).toBe(true);
  });

  it('a hook with continueOnFailure:false that throws denies the call (fail closed)', async () => {
    h.hooks.onPreToolUse(
      () => {
        throw new Error('policy server down');
      },
      { continueOnFailure: false },
    );
    await h.run([bash('touch ran.txt'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(existsSync(path.join(h.dir, 'ran.txt'))).toBe(false);
  });

  it('a Write outside the workspace is refused even in bypassPermissions mode', async () => {
    const outside = path.join(path.dirname(h.dir), `outside-${path.basename(h.dir)}.txt`);
    const { model } = await h.run([{ toolCalls: [{ name: 'Write', input: { file_path: outside, content: 'x' } }] }, { text: 'ok' }], {
      mode: 'bypassPermissions',
    });
    expect(existsSync(outside)).toBe(false);
    expect(model.toolResultsOf(1)[0]?.isError).toBe(true);
  });
});
