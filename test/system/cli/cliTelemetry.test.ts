import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';
import type { OtlpReceiver, ReceivedSpan } from '../../support/otlpReceiver';
import { startOtlpReceiver } from '../../support/otlpReceiver';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const ALLOW = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'echo is fine' } });

/** Two PreToolUse hooks on Bash: deny-rm denies `rm`, the second allows everything (deny wins). */
async function denyAndAllowHooks(): Promise<void> {
  await suite.w.settings({
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: hookCommand('deny-rm.cjs') },
            { type: 'command', command: hookCommand('reply.cjs', ALLOW) },
          ],
        },
      ],
    },
  });
}

function twoBashCalls(): Promise<OpenAiTestServer> {
  return suite.serve([
    toolCallsReply([
      { id: 'call_rm', name: 'Bash', arguments: { command: 'rm keep.txt' } },
      { id: 'call_echo', name: 'Bash', arguments: { command: 'echo secret-token-123' } },
    ]),
    textReply('Done.'),
  ]);
}

function runWithEnv(s: OpenAiTestServer, env: Record<string, string>) {
  const args = ['-p', 'tidy up', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '4'];
  return runCliProcess(suite.cli, suite.w, args, env);
}

function one(spans: readonly ReceivedSpan[], predicate: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan {
  const found = spans.filter(predicate);
  if (found.length !== 1) throw new Error(`expected one ${what}, got ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

describe('hookwise -p exports OpenTelemetry spans over OTLP/HTTP', () => {
  it('sends session → agent → tool → hook spans with decisions, sources and parents; no tool input or prompt', async () => {
    receiver = await startOtlpReceiver();
    await suite.w.write('keep.txt', 'precious');
    await denyAndAllowHooks();
    const s = await twoBashCalls();

    const out = await runWithEnv(s, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-team=hooks%20team',
      OTEL_SERVICE_NAME: 'ci-agent',
    });
    const json = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(out.stderr).not.toContain('OpenTelemetry');
    const spans = receiver.spans;
    const session = one(spans, (x) => x.name === 'session', 'session span');
    expect(session.parentSpanId).toBe('');
    expect(session.attributes['hookwise.session.id']).toBe(json.session_id);
    expect(session.resource['service.name']).toBe('ci-agent');
    expect(receiver.requests[0]?.['x-team']).toBe('hooks team');
    expect(new Set(spans.map((x) => x.traceId))).toEqual(new Set([session.traceId]));

    const agent = one(spans, (x) => x.name === 'agent main', 'main agent span');
    expect(agent.parentSpanId).toBe(session.spanId);
    expect(agent.attributes).toMatchObject({ 'hookwise.agent.id': 'main', 'hookwise.agent.type': 'main', 'hookwise.agent.status': 'completed' });

    const rm = one(spans, (x) => x.name === 'tool Bash' && x.attributes['hookwise.tool_use_id'] === 'call_rm', 'rm tool span');
    const echo = one(spans, (x) => x.name === 'tool Bash' && x.attributes['hookwise.tool_use_id'] === 'call_echo', 'echo tool span');
    for (const tool of [rm, echo]) expect(tool.parentSpanId).toBe(agent.spanId);
    expect(rm.attributes).toMatchObject({
      'hookwise.tool.status': 'denied',
      'hookwise.decision': 'deny',
      'hookwise.permission.outcome': 'deny',
      'hookwise.decided_by': 'hook',
    });
    expect(rm.attributes['hookwise.reason']).toContain('rm is blocked by project policy');
    expect(echo.attributes).toMatchObject({ 'hookwise.tool.status': 'done', 'hookwise.permission.outcome': 'allow' });
    expect(echo.statusCode).toBe(0);

    const hooks = spans.filter((x) => x.name === 'hook PreToolUse');
    expect(hooks).toHaveLength(4);
    const hookUnder = (tool: ReceivedSpan, script: string) =>
      one(
        hooks,
        (h) => h.parentSpanId === tool.spanId && String(h.attributes['hookwise.hook.command']).includes(script),
        `${script} hook under ${tool.attributes['hookwise.tool_use_id']}`,
      );
    expect(hookUnder(rm, 'deny-rm.cjs').attributes).toMatchObject({
      'hookwise.hook.event': 'PreToolUse',
      'hookwise.hook.handler': 'command',
      'hookwise.hook.status': 'blocked',
      'hookwise.decision': 'deny',
      'hookwise.hook.exit_code': 0,
      'hookwise.hook.source': '.claude/settings.json › hooks.PreToolUse[0].hooks[0]',
      'hookwise.tool.name': 'Bash',
      'hookwise.tool_use_id': 'call_rm',
    });
    expect(hookUnder(echo, 'reply.cjs').attributes).toMatchObject({
      'hookwise.decision': 'allow',
      'hookwise.reason': 'echo is fine',
      'hookwise.hook.source': '.claude/settings.json › hooks.PreToolUse[0].hooks[1]',
    });
    expect(hookUnder(echo, 'deny-rm.cjs').attributes['hookwise.decision']).toBeUndefined();
    for (const h of hooks) expect(h.attributes['hookwise.hook.duration_ms']).toBeTypeOf('number');

    // What the model and tools saw never leaves: no command text, no prompt, no output.
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain('secret-token-123');
    expect(everything).not.toContain('tidy up');
    expect(everything).not.toContain('rm keep.txt');
  });

  it('puts a subagent under the Agent call that started it, with its own tool calls and hooks below it', async () => {
    receiver = await startOtlpReceiver();
    await denyAndAllowHooks();
    const s = await suite.serve([
      toolCallsReply([
        { id: 'call_agent', name: 'Agent', arguments: { description: 'look around', prompt: 'echo something', subagent_type: 'general-purpose' } },
      ]),
      toolCallsReply([{ id: 'call_sub_echo', name: 'Bash', arguments: { command: 'echo from-sub' } }]),
      textReply('echoed'),
      textReply('Done.'),
    ]);

    const out = await runWithEnv(s, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });

    expect(parseJsonResult(out)).toMatchObject({ status: 'completed', result: 'Done.' });
    const spans = receiver.spans;
    const main = one(spans, (x) => x.name === 'agent main', 'main agent span');
    const agentCall = one(spans, (x) => x.name === 'tool Agent', 'Agent tool span');
    const sub = one(spans, (x) => x.name === 'agent general-purpose', 'subagent span');
    const subTool = one(spans, (x) => x.name === 'tool Bash', 'the subagent tool span');
    expect(agentCall.parentSpanId).toBe(main.spanId);
    expect(sub.parentSpanId).toBe(agentCall.spanId);
    expect(sub.attributes).toMatchObject({
      'hookwise.agent.parent_id': 'main',
      'hookwise.agent.parent_tool_use_id': 'call_agent',
      'hookwise.agent.status': 'completed',
    });
    expect(subTool.parentSpanId).toBe(sub.spanId);
    expect(subTool.attributes['hookwise.agent.id']).toBe(sub.attributes['hookwise.agent.id']);
    const subHooks = spans.filter((x) => x.name === 'hook PreToolUse' && x.parentSpanId === subTool.spanId);
    expect(subHooks.map((h) => h.attributes['hookwise.agent.type'])).toEqual(['general-purpose', 'general-purpose']);
  });

  it('sends nothing when no OTEL variable is set, or when OTEL_SDK_DISABLED=true', async () => {
    receiver = await startOtlpReceiver();
    await denyAndAllowHooks();

    const off = await runWithEnv(await twoBashCalls(), {});
    expect(off.code).toBe(0);

    const disabled = await runWithEnv(await suite.serve([textReply('hi')]), { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' });
    expect(disabled.code).toBe(0);
    const noneExporter = await runWithEnv(await suite.serve([textReply('hi')]), { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' });
    expect(noneExporter.code).toBe(0);

    expect(receiver.requests).toHaveLength(0);
    expect(receiver.spans).toHaveLength(0);
  });

  it('a receiver that is down costs one warning line: the run completes with its result and exit code', async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await denyAndAllowHooks();
    const s = await twoBashCalls();

    const out = await runWithEnv(s, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/v1/traces` });

    expect(out.code).toBe(0);
    expect(parseJsonResult(out)).toMatchObject({ status: 'completed', result: 'Done.' });
    const warnings = out.stderr.split('\n').filter((l) => l.includes('OpenTelemetry'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`OpenTelemetry export to http://127.0.0.1:${port}/v1/traces failed`);
  });
});
