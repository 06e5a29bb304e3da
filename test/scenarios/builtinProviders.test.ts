import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvents';
import type { Session } from '../../src/agent/session';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import { block } from '../../src/hooks/hookOutcome';
import type { HookOutcome } from '../../src/hooks/hookOutcome';
import type { HookRunRecord } from '../../src/hooks/hookRunTypes';
import type { ModelMessage } from '../../src/model/modelClient';
import { OpenAiModelClient } from '../../src/model/openAiModelClient';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import type { AgentLimits } from '../../src/agent/defaultLimits';
import { isBuiltinHookRun } from '../../src/vscode/tree/builtinHooks';
import type { CliWorkspace } from '../support/cliHarness';
import { makeCliWorkspace } from '../support/cliHarness';
import { jsonLinesOf, recordTo, writeHookScript } from '../support/lifecycleHarness';
import type { OpenAiTestServer, RecordedRequest, ScriptedReply } from '../support/openAiTestServer';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../support/openAiTestServer';

// The agent's capabilities as built-in hook providers, on the real runtime with command hooks from
// the workspace's settings and the local OpenAI-compatible server as the model: switching one off
// (`hookwise.hooks.disabled`, as the Disable action writes it), replacing it through the public
// `hooks.use(provider)`, and a middleware around real command hooks.

let w: CliWorkspace;
let server: OpenAiTestServer | undefined;
let session: Session | undefined;
let runtime: HookwiseRuntime;
const events: AgentEvent[] = [];
const runs: HookRunRecord[] = [];
beforeEach(async () => {
  w = await makeCliWorkspace();
  events.length = 0;
  runs.length = 0;
});
afterEach(async () => {
  await session?.end('other');
  session = undefined;
  await server?.close();
  server = undefined;
  await w.cleanup();
});

const signal = (): AbortSignal => new AbortController().signal;
const textOf = (request: RecordedRequest | undefined): string => JSON.stringify(request?.body.messages ?? []);
const padding = 'lorem ipsum '.repeat(100);
const HISTORY: ModelMessage[] = [
  { role: 'user', content: `Old question about the build. ${padding}` },
  { role: 'assistant', content: `Old answer: use esbuild. ${padding}` },
  { role: 'user', content: 'Second old question about tests.' },
  { role: 'assistant', content: 'Second old answer: vitest.' },
];

/** PreCompact, PostCompact and SessionStart hooks that record their inputs to one file. */
async function recordCompactionEvents(): Promise<string> {
  const file = path.join(w.ws, 'compaction-events.jsonl');
  const command = await writeHookScript(w, 'record', recordTo(file));
  await w.settings({
    hooks: Object.fromEntries(['PreCompact', 'PostCompact', 'SessionStart'].map((e) => [e, [{ hooks: [{ type: 'command', command }] }]])),
  });
  return file;
}

async function start(
  script: readonly ScriptedReply[],
  o: { disabled?: readonly string[]; history?: readonly ModelMessage[]; budget?: number; limits?: AgentLimits } = {},
): Promise<{ session: Session; diagnostics: readonly { message: string }[] }> {
  server = await startOpenAiTestServer({ script });
  runtime = new HookwiseRuntime({
    projectDir: w.ws,
    homeDir: w.home,
    model: new OpenAiModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'test-key', maxRetries: 0 }),
    modelName: 'test-model',
    transcriptDir: path.join(w.hookwiseHome, 'projects', 'ws'),
    observers: [{ onHookFinished: (r) => void runs.push(r) }],
    ...(o.limits ? { limits: () => o.limits as AgentLimits } : {}),
  });
  const config = await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] }), {
    ...(o.disabled ? { disabledHooks: o.disabled } : {}),
  });
  runtime.applyConfig(config, { trusted: true });
  session = runtime.createSession({
    permissionMode: 'default',
    trusted: true,
    emit: (event) => events.push(event),
    history: o.history ?? HISTORY,
    compactionBudgetTokens: o.budget ?? 100,
  });
  return { session, diagnostics: config.diagnostics };
}

describe('built-in compaction is a hook provider', () => {
  it('on by default: its hook shows as a built-in run of "built-in compaction" and compacts over the budget', async () => {
    const recorded = await recordCompactionEvents();
    const { session: s } = await start([textReply('SUMMARY: esbuild and vitest.'), textReply('Run npx vitest.')]);
    await s.submit('How do I run the tests?', signal());
    expect(jsonLinesOf(recorded).map((i) => i.hook_event_name)).toEqual(['PreCompact', 'PostCompact', 'SessionStart']);
    expect(server!.requests).toHaveLength(2);
    const compaction = runs.find((r) => r.hookId === 'builtin.compaction');
    expect(compaction).toMatchObject({ event: 'BeforeStep', status: 'ok', source: { kind: 'code', label: 'built-in compaction' } });
    expect(isBuiltinHookRun(compaction!)).toBe(true);
  });

  it('switched off (hookwise.hooks.disabled: "built-in compaction"): no compaction, no PreCompact, the model gets the whole conversation; back on, it compacts again', async () => {
    const recorded = await recordCompactionEvents();
    const { session: s } = await start([textReply('Run npx vitest.'), textReply('SUMMARY: esbuild and vitest.'), textReply('Still vitest.')], {
      disabled: ['built-in compaction'],
    });
    await s.submit('How do I run the tests?', signal());
    expect(server!.requests).toHaveLength(1);
    expect(textOf(server!.requests[0])).toContain('Old question about the build.');
    expect(existsSync(recorded)).toBe(false);
    expect(runs.some((r) => r.hookId === 'builtin.compaction')).toBe(false);
    expect(runtime.builtins.off).toEqual(['built-in compaction']);

    // The Enable action removes the switch: the next configuration installs the provider again.
    runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] })), { trusted: true });
    await s.submit('And the build?', signal());
    expect(jsonLinesOf(recorded).map((i) => i.hook_event_name)).toEqual(['PreCompact', 'PostCompact', 'SessionStart']);
    expect(textOf(server!.requests[2])).toContain('SUMMARY: esbuild and vitest.');
    expect(textOf(server!.requests[2])).not.toContain('Old question about the build.');
  });

  it('replaced: with the built-in off, an in-process summarizer installed by hooks.use(provider) writes the summary; the Claude Code events fire as before', async () => {
    const recorded = await recordCompactionEvents();
    const { session: s } = await start([textReply('Run npx vitest.')], { disabled: ['built-in compaction'] });
    const seen: { messages: number; instructions: readonly string[] }[] = [];
    const installed = runtime.hooks.use(
      runtime.compactionProvider({
        name: 'my summarizer',
        summarize: async (messages, instructions) => {
          seen.push({ messages: messages.length, instructions });
          return `MY SUMMARY of ${messages.length} messages`;
        },
      }),
    );
    await s.submit('How do I run the tests?', signal());
    installed.dispose();

    // No summarizer request reached the model: one request, the agent's, carrying the replacement's summary.
    expect(server!.requests).toHaveLength(1);
    expect(textOf(server!.requests[0])).toContain('MY SUMMARY of 3 messages');
    expect(textOf(server!.requests[0])).not.toContain('Old question about the build.');
    expect(seen).toEqual([{ messages: 3, instructions: [] }]);
    const inputs = jsonLinesOf(recorded);
    expect(inputs.map((i) => i.hook_event_name)).toEqual(['PreCompact', 'PostCompact', 'SessionStart']);
    expect(inputs[0]).toMatchObject({ trigger: 'auto' });
    expect(inputs[1]).toMatchObject({ compact_summary: 'MY SUMMARY of 3 messages' });
    expect(inputs[2]).toMatchObject({ source: 'compact' });
    expect(runs.find((r) => r.event === 'BeforeStep' && r.source.kind === 'code' && r.source.label === 'my summarizer')).toMatchObject({
      hookLabel: 'my summarizer: compaction',
      status: 'ok',
    });
  });
});

describe('built-in limits are a hook provider that cannot be switched off', () => {
  it('"built-in limits" in hookwise.hooks.disabled is a warning, and the step limit still ends the run', async () => {
    await w.write('notes.txt', 'hello');
    const read = toolCallsReply([{ name: 'Read', arguments: { file_path: path.join(w.ws, 'notes.txt') } }]);
    const { session: s, diagnostics } = await start([read, read, read, textReply('done')], {
      disabled: ['built-in limits'],
      history: [],
      budget: 1_000_000,
      limits: { maxSteps: 2, maxTokens: 0, maxWallTimeMs: 0 },
    });
    expect(diagnostics).toContainEqual(expect.objectContaining({ message: expect.stringContaining('"built-in limits" cannot be switched off') }));
    const result = await s.submit('Read the notes, again and again.', signal());
    expect(result).toMatchObject({ status: 'stopped', reason: expect.stringContaining('maximum of 2 steps') });
    expect(server!.requests).toHaveLength(2);
    expect(runtime.builtins.off).toEqual([]);
  });
});

describe('hooks.use(event, middleware) around real command hooks', () => {
  it('a middleware times the stack below it, sees a command hook deny through next(), and the deny stands', async () => {
    const deny = await writeHookScript(
      w,
      'deny-rm',
      `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no deleting' } }));`,
    );
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny }] }] } });
    const { session: s } = await start([toolCallsReply([{ name: 'Bash', arguments: { command: 'rm -rf build' } }]), textReply('I will not delete it.')], {
      history: [],
      budget: 1_000_000,
    });
    const below: HookOutcome[] = [];
    runtime.hooks.use(
      'PreToolUse',
      async (ctx, next) => {
        const outcome = await next();
        below.push(outcome);
        // Tries to wave the call through: a deny from below always stands.
        return ctx.tool_name === 'Bash' ? { decision: 'allow' } : outcome;
      },
      { priority: 10, label: 'timer' },
    );
    runtime.hooks.use('PreToolUse', () => block('never reached'), { priority: -10, matcher: 'Write' });
    const result = await s.submit('Delete the build folder.', signal());
    expect(result).toMatchObject({ status: 'completed', finalText: 'I will not delete it.' });
    expect(below).toEqual([expect.objectContaining({ decision: 'deny', reason: 'no deleting' })]);
    const pre = runs.filter((r) => r.event === 'PreToolUse');
    // Reported as they finish: the command hook inside the middleware's next(), then the middleware.
    expect(pre.map((r) => r.hookLabel)).toEqual([expect.stringContaining('deny-rm'), 'timer']);
    expect(JSON.stringify(server!.requests[1]?.body.messages)).toContain('no deleting');
  });
});
