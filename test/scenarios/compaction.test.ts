import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvents';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import type { Session } from '../../src/agent/session';
import { readTranscript } from '../../src/agent/transcriptReader';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import type { ModelMessage } from '../../src/model/modelClient';
import { OpenAiModelClient } from '../../src/model/openAiModelClient';
import type { OpenAiTestServer, RecordedRequest, ScriptedReply, ScriptFunction } from '../support/openAiTestServer';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../support/openAiTestServer';
import type { CliWorkspace } from '../support/cliHarness';
import { makeCliWorkspace } from '../support/cliHarness';
import { jsonLinesOf, recordTo, writeHookScript } from '../support/lifecycleHarness';

// Manual compaction and the estimated budget, run on the real runtime in-process (the same
// HookwiseRuntime the CLI builds) with command hooks from the workspace's .claude/settings.json
// and the local OpenAI-compatible server as the model. Automatic compaction through the CLI
// (--context-window, a context-length refusal) is in test/system/cli/cliAutoCompaction.test.ts.

let w: CliWorkspace;
let server: OpenAiTestServer | undefined;
let session: Session | undefined;
const events: AgentEvent[] = [];
beforeEach(async () => {
  w = await makeCliWorkspace();
  events.length = 0;
});
afterEach(async () => {
  await session?.end('other');
  session = undefined;
  await server?.close();
  server = undefined;
  await w.cleanup();
});

/** Hooks recording PreCompact and SessionStart inputs; PreCompact's plain stdout is a compaction instruction. */
async function writeCompactionHooks(): Promise<{ preCompact: string; sessionStart: string }> {
  const preCompact = path.join(w.ws, 'pre-compact.jsonl');
  const sessionStart = path.join(w.ws, 'session-start.jsonl');
  await w.settings({
    hooks: {
      PreCompact: [
        {
          hooks: [
            {
              type: 'command',
              command: await writeHookScript(w, 'pre-compact', `${recordTo(preCompact)}\nprocess.stdout.write('Keep every port number exactly.');`),
            },
          ],
        },
      ],
      SessionStart: [{ hooks: [{ type: 'command', command: await writeHookScript(w, 'session-start', recordTo(sessionStart)) }] }],
    },
  });
  return { preCompact, sessionStart };
}

async function createSession(
  script: readonly ScriptedReply[] | ScriptFunction,
  options: { history?: readonly ModelMessage[]; compactionBudgetTokens?: number } = {},
): Promise<Session> {
  server = await startOpenAiTestServer({ script });
  const runtime = new HookwiseRuntime({
    projectDir: w.ws,
    homeDir: w.home,
    model: new OpenAiModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'test-key', maxRetries: 0 }),
    modelName: 'test-model',
    transcriptDir: path.join(w.hookwiseHome, 'projects', 'ws'),
  });
  const config = await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] }));
  expect(config.diagnostics).toEqual([]);
  runtime.applyConfig(config, { trusted: true });
  session = runtime.createSession({
    permissionMode: 'default',
    trusted: true,
    emit: (event) => events.push(event),
    ...(options.history ? { history: options.history } : {}),
    ...(options.compactionBudgetTokens ? { compactionBudgetTokens: options.compactionBudgetTokens } : {}),
  });
  runtime.runner.addObserver({ onHookFinished: (r) => session?.transcriptWriter.writeHookRun(r) });
  return session;
}

const textOf = (request: RecordedRequest | undefined): string => JSON.stringify(request?.body.messages ?? []);
const signal = (): AbortSignal => new AbortController().signal;

describe('compaction with command hooks and a real OpenAI-compatible endpoint', () => {
  it('manual: PreCompact gets trigger manual, its stdout reaches the summarizer, the next request has the summary instead of the old turns, SessionStart compact fires', async () => {
    const hooks = await writeCompactionHooks();
    const summary = 'SUMMARY: the user uses Postgres on port 5432.';
    const s = await createSession([
      textReply('Answer one: Postgres.'),
      textReply('Answer two: port 5432.'),
      textReply(summary),
      textReply('Port 5432, as before.'),
    ]);
    await s.start('startup');
    await s.submit('Question one: which database?', signal());
    await s.submit('Question two: which port?', signal());

    const result = await s.compact('manual', signal(), 'Focus on the database setup.');
    await s.submit('Question three: remind me of the port.', signal());

    expect(result).toMatchObject({ status: 'compacted', summary });
    expect(jsonLinesOf(hooks.preCompact)).toEqual([
      expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'Focus on the database setup.', session_id: s.id }),
    ]);
    // The summarizer request: hook stdout and the user's instructions in the prompt, the old turns as the text to summarize.
    const summarizer = server!.requests[2]!;
    expect(String(summarizer.body.messages?.[0]?.content)).toContain('Keep every port number exactly.');
    expect(String(summarizer.body.messages?.[0]?.content)).toContain('Focus on the database setup.');
    expect(textOf(summarizer)).toContain('Question one: which database?');
    expect(textOf(summarizer)).toContain('Answer one: Postgres.');
    // The agent's next request: the summary, not the summarized turns.
    const next = textOf(server!.requests[3]);
    expect(next).toContain(summary);
    expect(next).not.toContain('Question one');
    expect(next).not.toContain('Question two');
    expect(next).toContain('Question three: remind me of the port.');
    expect(jsonLinesOf(hooks.sessionStart).map((i) => i.source)).toEqual(['startup', 'compact']);
    // A resume after the compaction starts from the summary too.
    const resumed = readTranscript(s.transcriptPath)
      .messages.map((m) => m.content)
      .join('\n');
    expect(resumed).toContain(summary);
    expect(resumed).not.toContain('Question one');
  });

  it('auto: over compactionBudgetTokens the session compacts before the model call (PreCompact trigger auto) and the model sees the summary', async () => {
    const hooks = await writeCompactionHooks();
    const padding = 'lorem ipsum '.repeat(100);
    const history: ModelMessage[] = [
      { role: 'user', content: `Old question about the build. ${padding}` },
      { role: 'assistant', content: `Old answer: use esbuild. ${padding}` },
      { role: 'user', content: 'Second old question about tests.' },
      { role: 'assistant', content: 'Second old answer: vitest.' },
    ];
    const summary = 'SUMMARY: build with esbuild, test with vitest.';
    const s = await createSession([textReply(summary), textReply('Run npx vitest.')], { history, compactionBudgetTokens: 100 });

    const result = await s.submit('New question: how do I run the tests?', signal());

    expect(result).toMatchObject({ status: 'completed', finalText: 'Run npx vitest.' });
    expect(jsonLinesOf(hooks.preCompact)).toEqual([expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'auto' })]);
    expect(server!.requests).toHaveLength(2);
    expect(String(server!.requests[0]!.body.messages?.[0]?.content)).toContain('Keep every port number exactly.');
    expect(textOf(server!.requests[0])).toContain('Old question about the build.');
    const agentRequest = textOf(server!.requests[1]);
    expect(agentRequest).toContain(summary);
    expect(agentRequest).not.toContain('Old question about the build.');
    expect(agentRequest).toContain('New question: how do I run the tests?');
    expect(jsonLinesOf(hooks.sessionStart).map((i) => i.source)).toEqual(['compact']);
    expect(events).toContainEqual(expect.objectContaining({ type: 'systemMessage', text: expect.stringMatching(/compacted \(auto\)/) }));
  });

  it('auto: when the kept recent turns alone exceed the budget it says so once and does not re-summarize on every later model call', async () => {
    const hugeAnswer = 'a very long answer '.repeat(200);
    const history: ModelMessage[] = [
      { role: 'user', content: 'Old question.' },
      { role: 'assistant', content: 'Old answer.' },
      { role: 'user', content: 'Show me everything.' },
      { role: 'assistant', content: hugeAnswer },
    ];
    const s = await createSession([textReply('SUMMARY: old questions.'), textReply('First reply.'), textReply('Second reply.'), textReply('Third reply.')], {
      history,
      compactionBudgetTokens: 400,
    });

    await s.submit('Next question.', signal());
    await s.submit('And another.', signal());
    await s.submit('One more.', signal());

    // One summarizer call, then only the agent's three requests.
    expect(server!.requests).toHaveLength(4);
    expect(textOf(server!.requests[3])).toContain('One more.');
    expect(events.filter((e) => e.type === 'systemMessage' && /still over the compaction budget/.test(e.text))).toHaveLength(1);
  });

  it('PostCompact fires after the compaction with the summary (trigger as matcher), before SessionStart compact', async () => {
    const order = path.join(w.ws, 'order.jsonl');
    await w.settings({
      hooks: {
        PostCompact: [
          { matcher: 'manual', hooks: [{ type: 'command', command: await writeHookScript(w, 'post-compact', recordTo(order)) }] },
          { matcher: 'auto', hooks: [{ type: 'command', command: await writeHookScript(w, 'post-compact-auto', recordTo(path.join(w.ws, 'auto.jsonl'))) }] },
        ],
        SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: await writeHookScript(w, 'session-start', recordTo(order)) }] }],
      },
    });
    const summary = 'SUMMARY: two questions about the database.';
    const s = await createSession([textReply('One.'), textReply('Two.'), textReply(summary)]);
    await s.submit('Question one?', signal());
    await s.submit('Question two?', signal());

    await s.compact('manual', signal());

    expect(jsonLinesOf(order).map((i) => i.hook_event_name)).toEqual(['PostCompact', 'SessionStart']);
    expect(jsonLinesOf(order)[0]).toMatchObject({ trigger: 'manual', compact_summary: summary, session_id: s.id });
    expect(existsSync(path.join(w.ws, 'auto.jsonl'))).toBe(false);
  });

  it('auto: compaction triggers on the prompt tokens the model reports, even when the text looks short', async () => {
    const hooks = await writeCompactionHooks();
    await w.write('a.txt', 'short\n');
    const history: ModelMessage[] = [
      { role: 'user', content: 'Old question.' },
      { role: 'assistant', content: 'Old answer.' },
      { role: 'user', content: 'Second old question.' },
      { role: 'assistant', content: 'Second old answer.' },
    ];
    // The conversation is a few dozen characters (far under the budget by estimate), but the
    // model says the prompt was 5000 tokens (system prompt, tools, images…): that decides.
    const s = await createSession(
      [
        toolCallsReply([{ name: 'Read', arguments: { file_path: 'a.txt' } }], { usage: { promptTokens: 5000, completionTokens: 10 } }),
        textReply('SUMMARY: old questions.'),
        textReply('Done.', { usage: { promptTokens: 300, completionTokens: 5 } }),
      ],
      { history, compactionBudgetTokens: 1000 },
    );

    const result = await s.submit('Read a.txt please.', signal());

    expect(result).toMatchObject({ status: 'completed', finalText: 'Done.' });
    expect(jsonLinesOf(hooks.preCompact)).toEqual([expect.objectContaining({ trigger: 'auto' })]);
    expect(server!.requests).toHaveLength(3);
    expect(textOf(server!.requests[2])).toContain('SUMMARY: old questions.');
  });

  it('auto: a server that under-reports prompt tokens cannot let a session of many small tool calls grow past the budget', async () => {
    const hooks = await writeCompactionHooks();
    await w.write('a.txt', 'ok\n');
    // 120 Read calls, three per reply, each reply claiming a 10-token prompt (as a server that
    // leaves cached tokens out, or a stub, does); then "done". Requests without tools are summaries.
    let calls = 0;
    const s = await createSession(
      (request) => {
        if (!request.body.tools?.length) return textReply('SUMMARY: read a.txt many times.');
        if (calls >= 120) return textReply('done', { usage: { promptTokens: 10, completionTokens: 1 } });
        calls += 3;
        return toolCallsReply(
          Array.from({ length: 3 }, () => ({ name: 'Read', arguments: { file_path: 'a.txt' } })),
          { usage: { promptTokens: 10, completionTokens: 1 } },
        );
      },
      { compactionBudgetTokens: 2000 },
    );

    const result = await s.submit('Read a.txt 120 times.', signal());

    expect(result).toMatchObject({ status: 'completed', finalText: 'done' });
    expect(jsonLinesOf(hooks.preCompact).length).toBeGreaterThan(0);
    expect(jsonLinesOf(hooks.preCompact).every((i) => i.trigger === 'auto')).toBe(true);
    // Every request the agent sent stayed near the budget (≈4 bytes per token, with room for the system prompt and tools).
    const agentRequests = server!.requests.filter((r) => r.body.tools?.length);
    const biggestMessages = Math.max(...agentRequests.map((r) => JSON.stringify(r.body.messages ?? []).length));
    expect(biggestMessages).toBeLessThan(2000 * 4 * 2);
  });
});
