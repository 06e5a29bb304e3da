import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectResponse } from '../../../src/model/modelClient';
import type { ModelRequest, ModelStreamEvent } from '../../../src/model/modelClient';
import { ModelError } from '../../../src/model/modelError';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import type { OpenAiModelClientOptions } from '../../../src/model/openAiModelClient';
import { errorReply, modelNotFoundReply, startOpenAiTestServer, textReply, toolCallsReply } from '../../support/openAiTestServer';
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

function clientFor(server: OpenAiTestServer, extra: Partial<OpenAiModelClientOptions> = {}): OpenAiModelClient {
  return new OpenAiModelClient({ baseURL: server.url, model: 'test-model', apiKey: 'sk-test', retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...extra });
}

const hello: ModelRequest = { messages: [{ role: 'user', content: 'hi' }] };

async function events(client: OpenAiModelClient, request: ModelRequest = hello, signal = new AbortController().signal): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of client.stream(request, signal)) out.push(e);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('OpenAiModelClient against the real test server', () => {
  it('streams text in several deltas, then usage and done', async () => {
    const server = await serve({ script: [textReply('Hello from the test server!', { usage: { promptTokens: 11, completionTokens: 7 } })] });
    const got = await events(clientFor(server));
    const deltas = got.filter((e) => e.type === 'text');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((e) => e.delta).join('')).toBe('Hello from the test server!');
    expect(got.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 11, outputTokens: 7 } },
      { type: 'done', finishReason: 'stop' },
    ]);
    const sent = server.requests[0]!;
    expect(sent.body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(sent.headers.authorization).toBe('Bearer sk-test');
  });

  it('streams reasoning_content deltas as reasoning, apart from the answer text', async () => {
    const server = await serve({ script: [textReply('The answer is 4.', { reasoning: 'Two plus two is four.' })] });
    const got = await events(clientFor(server));
    expect(
      got
        .filter((e) => e.type === 'reasoning')
        .map((e) => e.delta)
        .join(''),
    ).toBe('Two plus two is four.');
    expect(
      got
        .filter((e) => e.type === 'text')
        .map((e) => e.delta)
        .join(''),
    ).toBe('The answer is 4.');
    const thinking: string[] = [];
    const response = await collectResponse(
      clientFor(await serve({ script: [textReply('ok', { reasoning: 'hmm' })] })),
      hello,
      new AbortController().signal,
      undefined,
      (d) => thinking.push(d),
    );
    expect(response.text).toBe('ok');
    expect(thinking.join('')).toBe('hmm');
  });

  it('assembles several tool calls of one step from interleaved deltas, by index', async () => {
    const server = await serve({
      script: [
        toolCallsReply(
          [
            { id: 'call_a', name: 'Bash', arguments: { command: 'ls -la', description: 'list files' } },
            { id: 'call_b', name: 'Read', arguments: { file_path: '/tmp/some/long/path/to/a/file.txt' } },
            { id: 'call_c', name: 'Glob', arguments: { pattern: '**/*.ts' } },
          ],
          { interleaveToolCalls: true, chunkSize: 3, text: 'Let me look.' },
        ),
      ],
    });
    const response = await collectResponse(clientFor(server), hello, new AbortController().signal);
    expect(response.text).toBe('Let me look.');
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'Bash', argumentsText: '{"command":"ls -la","description":"list files"}' },
      { id: 'call_b', name: 'Read', argumentsText: '{"file_path":"/tmp/some/long/path/to/a/file.txt"}' },
      { id: 'call_c', name: 'Glob', argumentsText: '{"pattern":"**/*.ts"}' },
    ]);
  });

  it('passes broken JSON arguments through raw, without crashing', async () => {
    const server = await serve({ script: [toolCallsReply([{ name: 'Bash', arguments: '{"command": "ls' }])] });
    const response = await collectResponse(clientFor(server), hello, new AbortController().signal);
    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]).toMatchObject({ name: 'Bash', argumentsText: '{"command": "ls' });
    expect(response.toolCalls[0]!.id).toMatch(/\S/);
  });

  it('sends the conversation in OpenAI shape: tools, assistant tool_calls, tool results', async () => {
    const server = await serve({ script: [textReply('ok')] });
    await events(clientFor(server), {
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'list' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'Bash', argumentsText: '{"command":"ls"}' },
            { id: 'c2', name: 'Bash', argumentsText: '{"command": "l' },
          ],
        },
        { role: 'tool', toolCallId: 'c1', content: 'a.txt' },
        { role: 'tool', toolCallId: 'c2', content: 'Invalid JSON arguments', isError: true },
      ],
      tools: [{ name: 'Bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
      maxTokens: 100,
      temperature: 0,
    });
    const body = server.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'list' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
          // Broken history arguments are replaced: several servers 400 the whole request otherwise.
          { id: 'c2', type: 'function', function: { name: 'Bash', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
      { role: 'tool', tool_call_id: 'c2', content: 'Invalid JSON arguments' },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'Bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
      },
    ]);
    expect(body).toMatchObject({ max_tokens: 100, temperature: 0 });
    expect(body.response_format).toBeUndefined();
  });

  it('aborts mid-stream promptly with the signal reason, and the server sees the connection close', async () => {
    const server = await serve({ script: [{ hang: true, afterText: 'partial answer' }] });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const e of clientFor(server).stream(hello, controller.signal)) {
        if (e.type === 'text') seen.push(e.delta);
      }
    })();
    await vi.waitFor(() => expect(seen.join('')).toBe('partial answer'));
    const reason = new Error('user pressed stop');
    const started = Date.now();
    controller.abort(reason);
    expect(await rejection(run)).toBe(reason);
    expect(Date.now() - started).toBeLessThan(500);
    await vi.waitFor(() => expect(server.requests[0]!.clientDisconnected).toBe(true));
  });

  it('times out a hung server with a timeout ModelError', async () => {
    const server = await serve({ script: [{ hang: true }] });
    const error = await rejection(events(clientFor(server, { timeoutMs: 150, maxRetries: 0 })));
    expect(ModelError.is(error, 'timeout')).toBe(true);
    expect((error as Error).message).toContain(server.url);
  });

  it('retries a 500 and then succeeds (the server saw 2 requests)', async () => {
    const server = await serve({ script: [errorReply(500, { message: 'boom' }), textReply('recovered')] });
    const retries: number[] = [];
    const response = await collectResponse(clientFor(server, { onRetry: (i) => retries.push(i.retry) }), hello, new AbortController().signal);
    expect(response.text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([1]);
  });

  it('honours Retry-After on a 429', async () => {
    const server = await serve({ script: [errorReply(429, { message: 'slow down', headers: { 'retry-after': '0.3' } }), textReply('ok')] });
    const delays: number[] = [];
    const started = Date.now();
    const response = await collectResponse(clientFor(server, { onRetry: (i) => delays.push(i.delayMs) }), hello, new AbortController().signal);
    expect(response.text).toBe('ok');
    expect(delays).toEqual([300]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after maxRetries on persistent 5xx with a server ModelError', async () => {
    const server = await serve({ script: () => errorReply(503, { message: 'overloaded' }) });
    const error = await rejection(events(clientFor(server, { maxRetries: 2 })));
    expect(ModelError.is(error, 'server')).toBe(true);
    expect(error).toMatchObject({ status: 503 });
    expect((error as Error).message).toContain('overloaded');
    expect((error as Error).message).toContain('gave up after 3 attempts');
    expect(server.requests).toHaveLength(3);
  });

  it('stops waiting to retry when aborted', async () => {
    const server = await serve({ script: [errorReply(429, { headers: { 'retry-after': '30' } }), textReply('never')] });
    const controller = new AbortController();
    const run = events(clientFor(server, { onRetry: () => setTimeout(() => controller.abort(new Error('stop')), 20) }), hello, controller.signal);
    const started = Date.now();
    expect(await rejection(run)).toMatchObject({ message: 'stop' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('does not wait for a Retry-After beyond the limit, and says why', async () => {
    const server = await serve({ script: [errorReply(429, { headers: { 'retry-after': '3600' } })] });
    const error = await rejection(events(clientFor(server)));
    expect(ModelError.is(error, 'rateLimited')).toBe(true);
    expect((error as Error).message).toContain('asks to wait 3600 s');
    expect(server.requests).toHaveLength(1);
  });

  it('times out a stream that stalls after some text', async () => {
    const server = await serve({ script: [{ hang: true, afterText: 'thinking' }] });
    const shown: string[] = [];
    const error = await rejection(collectResponse(clientFor(server, { timeoutMs: 150 }), hello, new AbortController().signal, (d) => shown.push(d)));
    expect(shown.join('')).toBe('thinking');
    expect(ModelError.is(error, 'timeout')).toBe(true);
    expect(server.requests).toHaveLength(1); // text was shown: never retried
  });

  it('closes the connection when the consumer stops reading early', async () => {
    const server = await serve({ script: [textReply('x'.repeat(400), { chunkSize: 1, delayMs: 2 })] });
    for await (const e of clientFor(server).stream(hello, new AbortController().signal)) {
      if (e.type === 'text') break;
    }
    await vi.waitFor(() => expect(server.requests[0]!.clientDisconnected).toBe(true));
  });

  it('401 → auth error telling the user how to set the key; not retried', async () => {
    const server = await serve({ script: [], apiKey: 'the-right-key' });
    const error = await rejection(events(clientFor(server, { apiKey: 'wrong' })));
    expect(ModelError.is(error, 'auth')).toBe(true);
    expect(error).toMatchObject({ status: 401 });
    expect((error as Error).message).toMatch(/^The model endpoint rejected the API key \(401\)\. Set it with "Hookwise: Set API Key" or OPENAI_API_KEY\./);
    expect(server.requests).toHaveLength(1);
  });

  it('404 model_not_found → notFound naming the model and the endpoint', async () => {
    const server = await serve({ script: [modelNotFoundReply('gpt-nope')] });
    const error = await rejection(events(clientFor(server, { model: 'gpt-nope' })));
    expect(ModelError.is(error, 'notFound')).toBe(true);
    expect((error as Error).message).toContain(`Model "gpt-nope" was not found at ${server.url} (404).`);
  });

  it('404 on a wrong base URL → notFound that points at the base URL', async () => {
    const server = await serve({ script: [] });
    const client = new OpenAiModelClient({ baseURL: server.url.replace(/\/v1$/, '/nope'), model: 'm', maxRetries: 0 });
    const error = await rejection(events(client));
    expect(ModelError.is(error, 'notFound')).toBe(true);
    expect((error as Error).message).toContain('Check the base URL');
  });

  it('connection refused → connection error asking whether the server runs', async () => {
    const port = await closedPort();
    const client = new OpenAiModelClient({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 1, retry: { baseDelayMs: 5 } });
    const error = await rejection(events(client));
    expect(ModelError.is(error, 'connection')).toBe(true);
    expect((error as Error).message).toContain(`Could not connect to http://127.0.0.1:${port}/v1 — is the server running?`);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('other 4xx → badRequest with the server message', async () => {
    const server = await serve({ script: [errorReply(400, { message: 'messages: too many tokens' })] });
    const error = await rejection(events(clientFor(server)));
    expect(ModelError.is(error, 'badRequest')).toBe(true);
    expect((error as Error).message).toContain('messages: too many tokens');
    expect(server.requests).toHaveLength(1);
  });
});

/** A port nothing listens on: bind one, then close it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
