import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_REPLY_RETRIES } from '../../../src/agent/agentInference';
import { block, respondWith, rewriteRequest, selectTools } from '../../../src/hooks/hookOutcome';
import { modelHookMarkerText } from '../../../src/presentation/modelHookMarkerText';
import type { AgentHarness } from './agentHarness';
import { bash, makeAgentHarness } from './agentHarness';

let h: AgentHarness;
beforeEach(async () => {
  h = await makeAgentHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const toolNames = (tools: readonly { name: string }[] | undefined): string[] => (tools ?? []).map((t) => t.name).sort();

describe('in-process model-level hooks', () => {
  it('BeforeInference rewrites messages, system prompt and settings: the model gets the rewrite, the conversation keeps the original', async () => {
    h.hooks.onBeforeInference((ctx) =>
      rewriteRequest({
        messages: [{ role: 'user', content: `short: ${ctx.llm_request?.messages.at(-1)?.content ?? ''}` }],
        config: { systemInstruction: `${ctx.llm_request?.config.systemInstruction ?? ''} Be brief.`, temperature: 0, maxOutputTokens: 64 },
      }),
    );
    const { model, conversation, events } = await h.run([{ text: 'ok' }], { prompt: 'a long question' });

    expect(model.requests[0]).toMatchObject({ temperature: 0, maxTokens: 64 });
    expect(model.messagesOf(0)).toEqual([
      { role: 'system', content: 'You are a test agent. Be brief.' },
      { role: 'user', content: 'short: a long question' },
    ]);
    expect(conversation.messages[0]).toEqual({ role: 'user', content: 'a long question' });
    expect(h.records.find((r) => r.event === 'BeforeInference')?.effect).toBe(
      'messages 1 → 1, system prompt rewritten, settings: temperature, maxOutputTokens',
    );
    const marks = events.flatMap((e) => (e.type === 'modelHookMarker' ? [modelHookMarkerText(e.marker)] : []));
    expect(marks).toEqual([
      expect.stringMatching(/^Request changed by hook ".*": messages 1 → 1, system prompt rewritten, settings: temperature, maxOutputTokens$/),
    ]);
  });

  it('a synthetic answer skips the model and flows on: its tool call goes through PreToolUse, which can deny it', async () => {
    let answered = false;
    h.hooks.onBeforeInference(() => {
      if (answered) return undefined;
      answered = true;
      return respondWith({ text: 'Deleting.', tool_calls: [{ id: 'c1', name: 'Bash', arguments: JSON.stringify({ command: 'touch gone.marker' }) }] });
    });
    const denied: string[] = [];
    h.hooks.onPreToolUse((ctx) => {
      denied.push(String(ctx.tool_input.command));
      return block('not from a cache');
    });
    const { model, events, result } = await h.run([{ text: 'after the denial' }], { mode: 'bypassPermissions' });

    expect(denied).toEqual(['touch gone.marker']);
    expect(existsSync(path.join(h.dir, 'gone.marker'))).toBe(false);
    expect(model.requests).toHaveLength(1);
    expect(result.finalText).toBe('after the denial');
    const marker = events.find((e) => e.type === 'modelHookMarker');
    expect(marker?.type === 'modelHookMarker' && modelHookMarkerText(marker.marker)).toMatch(/^Answered by hook ".*" \(the model was not called\)$/);
    expect(h.records.find((r) => r.event === 'BeforeInference' && r.effect !== undefined)?.effect).toBe('answered without the model');
  });

  it('a synthetic answer is shown as text once, though nothing streamed it', async () => {
    h.hooks.onBeforeInference(() => respondWith({ candidates: [{ content: { parts: ['From ', 'the cache.'] } }] }));
    const { events, model } = await h.run([]);
    expect(model.requests).toHaveLength(0);
    expect(events.filter((e) => e.type === 'text')).toEqual([expect.objectContaining({ delta: 'From the cache.' })]);
  });

  it('BeforeToolSelection: the union of the hooks, intersected with what the call offers (a filter never adds)', async () => {
    h.hooks.on('BeforeToolSelection', () => selectTools(['Read']));
    h.hooks.on('BeforeToolSelection', () => selectTools(['Glob', 'NotOffered']));
    const { model, events } = await h.run([{ text: 'ok' }]);
    expect(toolNames(model.requests[0]?.tools)).toEqual(['Glob', 'Read']);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'systemMessage', text: expect.stringContaining('"NotOffered" was never offered on this call') }),
    );
  });

  it('a tool the filter took off the call does not run even when the model names it', async () => {
    h.hooks.on('BeforeToolSelection', () => selectTools(['Read']));
    const { model } = await h.run([bash('touch written.marker'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(existsSync(path.join(h.dir, 'written.marker'))).toBe(false);
    expect(model.toolResultsOf(1)[0]?.isError).toBe(true);
  });

  it('tool mode NONE offers no tool at all; ANY requires one', async () => {
    h.hooks.on('BeforeToolSelection', (ctx) =>
      ctx.step_index === 1 ? { toolConfig: { mode: 'NONE' } } : { toolConfig: { mode: 'ANY', allowedFunctionNames: ['Read'] } },
    );
    const { model } = await h.run([bash('true'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(model.requests[0]?.tools).toEqual([]);
    expect(model.requests[1]).toMatchObject({ toolChoice: 'required' });
    expect(toolNames(model.requests[1]?.tools)).toEqual(['Read']);
  });

  it('AfterInference redacts: no text event, conversation or transcript holds the original', async () => {
    h.hooks.onAfterInference((ctx) => respondWith({ text: (ctx.llm_response?.text ?? '').replace(/hunter2/g, '****') }));
    const { events, conversation, result } = await h.run([{ text: 'the password is hunter2' }]);

    expect(result.finalText).toBe('the password is ****');
    const shown = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta);
    expect(shown.join('')).toBe('the password is ****');
    expect(JSON.stringify(events)).not.toContain('hunter2');
    expect(JSON.stringify(conversation.messages)).not.toContain('hunter2');
    expect(readFileSync(h.transcriptPath, 'utf8')).not.toContain('hunter2');
    expect(h.records.find((r) => r.event === 'AfterInference')?.effect).toBe('reply redacted');
    // The mark comes before the reply's text: the chat puts it on the message it concerns.
    const mark = events.findIndex((e) => e.type === 'modelHookMarker' && e.marker.kind === 'redacted');
    expect(mark).toBeGreaterThanOrEqual(0);
    expect(mark).toBeLessThan(events.findIndex((e) => e.type === 'text'));
  });

  it('AfterInference rewrites a tool call: the rewritten call still goes through PreToolUse', async () => {
    h.hooks.onAfterInference((ctx) =>
      ctx.llm_response?.tool_calls.length
        ? respondWith({ text: '', tool_calls: [{ id: 'safe', name: 'Bash', arguments: JSON.stringify({ command: 'echo rewritten' }) }] })
        : undefined,
    );
    const seen: string[] = [];
    h.hooks.onPreToolUse((ctx) => void seen.push(String(ctx.tool_input.command)));
    const { model } = await h.run([bash('rm -rf /tmp/nothing-here'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(seen).toEqual(['echo rewritten']);
    expect(model.toolResultsOf(1)[0]).toMatchObject({ toolCallId: 'safe' });
  });

  it('AfterInference block sends the model back with the reason, at most MAX_REPLY_RETRIES times', async () => {
    h.hooks.onAfterInference(() => block('cite a source'));
    const turns = Array.from({ length: MAX_REPLY_RETRIES + 1 }, (_, i) => ({ text: `attempt ${i}` }));
    const { model, conversation, result } = await h.run(turns);

    expect(model.requests).toHaveLength(MAX_REPLY_RETRIES + 1);
    expect(model.textOf(1)).toContain('cite a source');
    expect(model.textOf(1)).not.toContain('attempt 0');
    expect(result.finalText).toBe(`attempt ${MAX_REPLY_RETRIES}`);
    expect(conversation.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
  });

  it('an in-process rewrite past the bounds is reported naming the hook, and the request goes out unmodified', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { deep };
    h.hooks.onBeforeInference(() => rewriteRequest({ messages: [{ role: 'user', content: 'short' }], config: { nested: deep } }), { label: 'deep-rewriter' });
    const { model } = await h.run([{ text: 'ok' }], { prompt: 'the original' });
    expect(model.messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'the original' });
    const record = h.records.find((r) => r.event === 'BeforeInference');
    expect(record).toMatchObject({ status: 'failed', hookLabel: 'deep-rewriter', error: expect.stringContaining('it was not used') });
  });
});
