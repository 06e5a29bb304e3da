import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MAX_RUN_METADATA_CHARS, overlayMetadata, RunMetadata } from '../../../src/agent/runMetadata';
import type { HookRunRecord } from '../../../src/hooks/hookRunTypes';
import { MetadataMatcher } from '../../../src/hooks/matchers/metadataMatcher';
import type { RecordedRequest, ScriptedReply } from '../../support/openAiTestServer';
import { errorReply, textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useRuntimeEnv } from './runtimeHarness';

// State as data: what hooks merge with metadataToMerge is kept on the agent run and shown to
// every later hook (input `metadata`, Metadata matchers); a subagent starts from a copy of
// its parent's. Also: SubagentStop when a subagent fails, agent hooks visible in Hook Runs.

const env = useRuntimeEnv();

const systemPrompt = (r: RecordedRequest): string => String(r.body.messages?.[0]?.content ?? '');
const isSubagent = (r: RecordedRequest): boolean => systemPrompt(r).startsWith('You are a subagent');
const isAgentHook = (r: RecordedRequest): boolean => systemPrompt(r).includes('You are evaluating a hook');
const toolMessages = (r: RecordedRequest | undefined): string[] => (r?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));

it('metadata merged in one step reaches later steps: a Metadata-matched hook fires, in-process and command hooks read it', async () => {
  // A command hook appends each PreToolUse stdin it gets, one JSON per line.
  await env.w.settings({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '{ cat; echo; } >> "$CLAUDE_PROJECT_DIR/pre.jsonl"' }] }] },
  });
  const seenBeforeStep: { step: number | undefined; metadata: unknown }[] = [];
  const script = [
    toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'echo one' } }]),
    toolCallsReply([{ id: 'b2', name: 'Bash', arguments: { command: 'echo two' } }]),
    textReply('done'),
  ];
  const { server, toolStatus } = await env.runPrompt({
    script,
    trusted: true,
    mode: 'bypassPermissions',
    setup: (runtime) => {
      // A step counter: each AfterStep overwrites the last value (later events win).
      runtime.hooks.onAfterStep((ctx) => ({ metadataToMerge: { steps_done: ctx.step_index } }));
      runtime.hooks.onBeforeStep((ctx) => void seenBeforeStep.push({ step: ctx.step_index, metadata: ctx.metadata }), {
        matcher: new MetadataMatcher('steps_done'),
      });
      runtime.hooks.onPreToolUse(() => ({ decision: 'deny', reason: 'only one Bash call after the first step' }), {
        matcher: new MetadataMatcher('steps_done', 1),
      });
    },
  });

  expect(seenBeforeStep).toEqual([
    { step: 2, metadata: { steps_done: 1 } },
    { step: 3, metadata: { steps_done: 2 } },
  ]);
  expect(toolStatus.get('b1')).toBe('done');
  expect(toolStatus.get('b2')).toBe('denied');
  expect(toolMessages(server.requests[2])[1]).toContain('only one Bash call after the first step');
  const stdin = (await readFile(path.join(env.w.ws, 'pre.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(stdin).toHaveLength(2);
  expect(stdin[0]).not.toHaveProperty('metadata');
  expect(stdin[1]).toMatchObject({ hook_event_name: 'PreToolUse', metadata: { steps_done: 1 } });
});

it("a subagent starts from a copy of its parent's metadata; what it merges stays its own", async () => {
  const seen: { where: string; metadata: unknown }[] = [];
  const script = (request: RecordedRequest): ScriptedReply => {
    if (isSubagent(request)) return textReply('sub done');
    return request.body.messages?.some((m) => m.role === 'tool')
      ? textReply('done')
      : toolCallsReply([{ id: 'a1', name: 'Agent', arguments: { description: 'look around', prompt: 'look', subagent_type: 'general-purpose' } }]);
  };
  await env.runPrompt({
    script,
    trusted: true,
    mode: 'bypassPermissions',
    setup: (runtime) => {
      runtime.hooks.onBeforeStep(() => ({ metadataToMerge: { origin: 'main' } }), { agentType: 'main' });
      runtime.hooks.onSubagentStart((ctx) => {
        seen.push({ where: 'SubagentStart', metadata: ctx.metadata });
        return { metadataToMerge: { spawned_as: ctx.agent_type } };
      });
      runtime.hooks.onBeforeStep(
        (ctx) => {
          seen.push({ where: 'subagent BeforeStep', metadata: ctx.metadata });
          return { metadataToMerge: { child: true } };
        },
        { agentType: 'general-purpose' },
      );
      runtime.hooks.onSubagentStop((ctx) => void seen.push({ where: 'SubagentStop', metadata: ctx.metadata }));
      runtime.hooks.onAfterStep((ctx) => void seen.push({ where: `main AfterStep ${ctx.step_index}`, metadata: ctx.metadata }), { agentType: 'main' });
    },
  });

  expect(seen).toEqual([
    { where: 'SubagentStart', metadata: { origin: 'main' } },
    { where: 'subagent BeforeStep', metadata: { origin: 'main', spawned_as: 'general-purpose' } },
    { where: 'SubagentStop', metadata: { origin: 'main', spawned_as: 'general-purpose', child: true } },
    { where: 'main AfterStep 1', metadata: { origin: 'main' } },
    { where: 'main AfterStep 2', metadata: { origin: 'main' } },
  ]);
});

it('metadata that would grow past the bound is not kept, and the user is told', async () => {
  const seen: unknown[] = [];
  const { events } = await env.runPrompt({
    script: [toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'true' } }]), textReply('done')],
    trusted: true,
    mode: 'bypassPermissions',
    setup: (runtime) => {
      runtime.hooks.onExecutionStart(() => ({ metadataToMerge: { small: 1 } }));
      runtime.hooks.onAfterInference(() => ({ metadataToMerge: { big: 'x'.repeat(MAX_RUN_METADATA_CHARS) } }));
      runtime.hooks.onAfterStep((ctx) => void seen.push(ctx.metadata));
    },
  });
  expect(seen).toEqual([{ small: 1 }, { small: 1 }]);
  const told = events.filter((e) => e.type === 'systemMessage' && e.text.includes('AfterInference') && e.text.includes('not kept'));
  expect(told).toHaveLength(2);
});

it('SubagentStop fires when the subagent fails, with its error', async () => {
  const stops: Record<string, unknown>[] = [];
  const script = (request: RecordedRequest): ScriptedReply => {
    if (isSubagent(request)) return errorReply(400, { message: 'the subagent model broke', type: 'invalid_request_error' });
    return request.body.messages?.some((m) => m.role === 'tool')
      ? textReply('done')
      : toolCallsReply([{ id: 'a1', name: 'Agent', arguments: { description: 'fail', prompt: 'fail please', subagent_type: 'general-purpose' } }]);
  };
  const { toolStatus } = await env.runPrompt({
    script,
    trusted: true,
    mode: 'bypassPermissions',
    setup: (runtime) => {
      runtime.hooks.onSubagentStop((ctx) => void stops.push({ ...ctx }));
    },
  });
  expect(toolStatus.get('a1')).toBe('failed');
  expect(stops).toHaveLength(1);
  expect(stops[0]).toMatchObject({
    hook_event_name: 'SubagentStop',
    agent_type: 'general-purpose',
    hookwise: { parent_agent_id: 'main' },
    stop_hook_active: false,
  });
  expect(String(stops[0]?.['error'])).toContain('the subagent model broke');
});

it("an agent hook's own steps show in Hook Runs as a nested agent under the agent that fired it", async () => {
  await env.w.write('notes.txt', 'hello\n');
  await env.w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Allow if notes.txt says hello.' }] }] } });
  const records: HookRunRecord[] = [];
  let hookStep = 0;
  let mainStep = 0;
  const script = (request: RecordedRequest): ScriptedReply => {
    if (!isAgentHook(request)) return mainStep++ === 0 ? toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'true' } }]) : textReply('done');
    return hookStep++ === 0
      ? toolCallsReply([{ id: 'r1', name: 'Read', arguments: { file_path: path.join(env.w.ws, 'notes.txt') } }])
      : textReply('{"ok": true}');
  };
  const { session } = await env.runPrompt({
    script,
    trusted: true,
    mode: 'bypassPermissions',
    setup: (runtime) => void runtime.runner.addObserver({ onHookFinished: (r) => records.push(r) }),
  });

  const fired = records.find((r) => r.actionKind === 'agent');
  expect(fired).toMatchObject({ event: 'PreToolUse', agentId: 'main', status: 'ok' });
  const nested = records.filter((r) => r.agentType === 'agent-hook');
  // Its two steps, each through the three built-in limit hooks.
  expect(nested.filter((r) => r.event === 'BeforeStep')).toHaveLength(6);
  expect(new Set(nested.map((r) => r.agentId)).size).toBe(1);
  expect(nested[0]?.agentId).toMatch(/^agent-hook-/);
  for (const r of nested) expect(r).toMatchObject({ parentAgentId: 'main', sessionId: session.id });
});

it('across events a later value replaces an earlier one, nested objects merge key by key, neither input changes', () => {
  const base = { budget: { tier: 'low', used: 1 }, phase: 'plan' };
  const add = { budget: { used: 2 }, phase: 'build', list: [1] };
  expect(overlayMetadata(base, add)).toEqual({ budget: { tier: 'low', used: 2 }, phase: 'build', list: [1] });
  expect(base).toEqual({ budget: { tier: 'low', used: 1 }, phase: 'plan' });
  const state = new RunMetadata();
  expect(state.apply({ when: new Date(0), f: () => 1 })).toBeUndefined();
  // Kept as its JSON form, frozen: a hook that keeps a reference cannot change the run's state.
  expect(state.current).toEqual({ when: '1970-01-01T00:00:00.000Z' });
  expect(Object.isFrozen(state.current)).toBe(true);
  expect(state.apply({ n: 1n })).toMatch(/not JSON/);
  expect(state.current).toEqual({ when: '1970-01-01T00:00:00.000Z' });
});
