// The test server itself, spoken to with plain fetch: the shapes other suites rely on.
import { afterEach, describe, expect, it } from 'vitest';
import { errorReply, startOpenAiTestServer, textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { OpenAiTestServer, OpenAiTestServerOptions } from '../../support/openAiTestServer';

const servers: OpenAiTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(options: OpenAiTestServerOptions): Promise<OpenAiTestServer> {
  const server = await startOpenAiTestServer(options);
  servers.push(server);
  return server;
}
function post(server: OpenAiTestServer, body: unknown): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('openAiTestServer', () => {
  it('answers non-streaming requests with a chat.completion, tool calls included', async () => {
    const server = await serve({
      script: [toolCallsReply([{ id: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }], { text: 'hi', usage: { promptTokens: 3, completionTokens: 4 } })],
    });
    const res = await post(server, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'hi',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', completed: true, clientDisconnected: false });
  });

  it('streams SSE chunks ending in [DONE], usage only when asked for', async () => {
    const server = await serve({ script: [textReply('abcdefgh', { chunkSize: 3 }), textReply('x')] });
    const withUsage = await (await post(server, { model: 'm', stream: true, stream_options: { include_usage: true }, messages: [] })).text();
    const frames = withUsage.split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.replace(/^data: /, '')) as { choices: { delta: { content?: string } }[]; usage?: unknown });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('abcdefgh');
    expect(chunks.at(-1)!.usage).toBeDefined();
    const without = await (await post(server, { model: 'm', stream: true, messages: [] })).text();
    expect(without).not.toContain('"usage"');
  });

  it('sends scripted errors in OpenAI error shape with headers, and 400s an exhausted script', async () => {
    const server = await serve({ script: [errorReply(429, { message: 'slow', headers: { 'retry-after': '2' } })] });
    const res = await post(server, { messages: [] });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toEqual({ error: { message: 'slow', type: 'rate_limit_error', param: null, code: null } });
    const exhausted = await post(server, { messages: [] });
    expect(exhausted.status).toBe(400);
    expect(await exhausted.text()).toContain('script exhausted');
    expect(server.repliesUsed()).toBe(1);
  });

  it('lists models and 404s unknown URLs', async () => {
    const server = await serve({ script: [] });
    expect(await (await fetch(`${server.url}/models`)).json()).toMatchObject({ object: 'list', data: [{ id: 'test-model', object: 'model' }] });
    expect((await fetch(`${server.url.replace('/v1', '')}/chat/completions`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('close() ends hanging connections', async () => {
    const server = await serve({ script: [{ hang: true }] });
    const pending = post(server, { messages: [] }).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((r) => setTimeout(r, 50));
    await server.close();
    servers.splice(0);
    expect(await pending).toBe('failed');
  });
});
