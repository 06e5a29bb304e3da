import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPACTION_OFF_REASON } from '../../src/agent/compactionProvider';
import type { ModelMessage } from '../../src/model/modelClient';
import type { ProviderRuntime } from '../support/builtinProviderRuntime';
import { requestText, startProviderRuntime } from '../support/builtinProviderRuntime';
import type { CliWorkspace } from '../support/cliHarness';
import { makeCliWorkspace } from '../support/cliHarness';
import { jsonLinesOf, recordTo, writeHookScript } from '../support/lifecycleHarness';
import type { ScriptedReply } from '../support/openAiTestServer';
import { errorReply, textReply } from '../support/openAiTestServer';

// `/compact` and the retry after a context-length refusal go through the compaction provider in
// effect, like the automatic compaction: switched off, they do not compact and say why; replaced,
// the replacement's summarizer writes the summary. Real runtime, real command hooks recording
// PreCompact/PostCompact, the local OpenAI-compatible server as the model.

let w: CliWorkspace;
let r: ProviderRuntime | undefined;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await r?.close();
  r = undefined;
  await w.cleanup();
});

const signal = (): AbortSignal => new AbortController().signal;
const HISTORY: ModelMessage[] = [
  { role: 'user', content: 'OLD-QUESTION about the build.' },
  { role: 'assistant', content: 'Old answer: use esbuild.' },
  { role: 'user', content: 'Second old question about tests.' },
  { role: 'assistant', content: 'Second old answer: vitest.' },
];
const TOO_LONG = errorReply(400, {
  message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens.",
  type: 'invalid_request_error',
  code: 'context_length_exceeded',
});

/** PreCompact and PostCompact hooks recording their inputs to one file. */
async function recordCompaction(): Promise<string> {
  const file = path.join(w.ws, 'compact.jsonl');
  const command = await writeHookScript(w, 'record', recordTo(file));
  await w.settings({ hooks: { PreCompact: [{ hooks: [{ type: 'command', command }] }], PostCompact: [{ hooks: [{ type: 'command', command }] }] } });
  return file;
}

async function start(script: readonly ScriptedReply[], disabled?: readonly string[]): Promise<ProviderRuntime> {
  r = await startProviderRuntime(w, script, { history: HISTORY, ...(disabled ? { disabled } : {}) });
  return r;
}

describe('/compact goes through the compaction provider', () => {
  it('switched off: /compact says compaction is switched off, fires no PreCompact and calls no model', async () => {
    const recorded = await recordCompaction();
    const p = await start([], ['built-in compaction']);
    expect(await p.session.compact('manual', signal())).toEqual({ status: 'skipped', reason: COMPACTION_OFF_REASON });
    expect(existsSync(recorded)).toBe(false);
    expect(p.server.requests).toHaveLength(0);
    expect(p.session.messages).toEqual(HISTORY);
  });

  it('replaced: /compact uses the replacement summarizer (no model call), and PreCompact/PostCompact fire as before', async () => {
    const recorded = await recordCompaction();
    const p = await start([], ['built-in compaction']);
    const seen: string[][] = [];
    p.runtime.hooks.use(
      p.runtime.compactionProvider({
        name: 'my summarizer',
        summarize: async (messages, instructions) => {
          seen.push([...instructions]);
          return `MY SUMMARY of ${messages.length} messages`;
        },
      }),
    );
    const result = await p.session.compact('manual', signal(), 'keep the build notes');
    expect(result).toMatchObject({ status: 'compacted', summary: 'MY SUMMARY of 3 messages' });
    expect(seen).toEqual([['keep the build notes']]);
    expect(p.server.requests).toHaveLength(0);
    expect(jsonLinesOf(recorded)).toEqual([
      expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep the build notes' }),
      expect.objectContaining({ hook_event_name: 'PostCompact', trigger: 'manual', compact_summary: 'MY SUMMARY of 3 messages' }),
    ]);
  });

  it('on by default: /compact summarizes with the model', async () => {
    const p = await start([textReply('SUMMARY: esbuild and vitest.')]);
    expect(await p.session.compact('manual', signal())).toMatchObject({ status: 'compacted', summary: 'SUMMARY: esbuild and vitest.' });
    expect(p.server.requests).toHaveLength(1);
  });
});

describe('the retry after a context-length refusal goes through the compaction provider', () => {
  it('switched off: the refusal ends the prompt, saying compaction is switched off; nothing was summarized', async () => {
    const recorded = await recordCompaction();
    const p = await start([TOO_LONG], ['built-in compaction']);
    const result = await p.session.submit('And the build?', signal());
    expect(result.status).not.toBe('completed');
    expect(p.server.requests).toHaveLength(1);
    expect(existsSync(recorded)).toBe(false);
    expect(p.events).toContainEqual(expect.objectContaining({ type: 'systemMessage', text: `The conversation was not compacted: ${COMPACTION_OFF_REASON}.` }));
  });

  it('replaced: the replacement summarizes, and the call goes again with its summary', async () => {
    const p = await start([TOO_LONG, textReply('Use esbuild.')], ['built-in compaction']);
    p.runtime.hooks.use(p.runtime.compactionProvider({ name: 'my summarizer', summarize: async (messages) => `MY SUMMARY of ${messages.length} messages` }));
    const result = await p.session.submit('And the build?', signal());
    expect(result).toMatchObject({ status: 'completed', finalText: 'Use esbuild.' });
    expect(p.server.requests).toHaveLength(2);
    expect(requestText(p.server.requests[0])).toContain('OLD-QUESTION');
    expect(requestText(p.server.requests[1])).toContain('MY SUMMARY of');
    expect(requestText(p.server.requests[1])).not.toContain('OLD-QUESTION');
  });
});
