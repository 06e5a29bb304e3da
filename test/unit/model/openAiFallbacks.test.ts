import { afterEach, describe, expect, it } from 'vitest';
import { collectResponse } from '../../../src/model/modelClient';
import type { ModelRequest } from '../../../src/model/modelClient';
import { ModelError } from '../../../src/model/modelError';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import { errorReply, startOpenAiTestServer, textReply } from '../../support/openAiTestServer';
import type { OpenAiTestServer, OpenAiTestServerOptions } from '../../support/openAiTestServer';

const servers: OpenAiTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options: OpenAiTestServerOptions): Promise<{ server: OpenAiTestServer; client: OpenAiModelClient }> {
  const server = await startOpenAiTestServer(options);
  servers.push(server);
  // No apiKey: the client must work against endpoints that need none.
  return { server, client: new OpenAiModelClient({ baseURL: server.url, model: 'local-model', retry: { baseDelayMs: 5 } }) };
}

const structured: ModelRequest = {
  messages: [{ role: 'user', content: 'Is `rm -rf /` safe? Answer as JSON.' }],
  responseSchema: { name: 'verdict', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
};
const signal = (): AbortSignal => new AbortController().signal;

describe('OpenAiModelClient tolerance of compatible servers', () => {
  it('sends response_format json_schema (strict: false) when a responseSchema is given', async () => {
    const { server, client } = await serve({ script: [textReply('{"ok": false}')] });
    expect((await collectResponse(client, structured, signal())).text).toBe('{"ok": false}');
    expect(server.requests[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'verdict', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }, strict: false },
    });
  });

  it('retries once without response_format when the server 400s it, and remembers that', async () => {
    const { server, client } = await serve({ script: [textReply('{"ok": false}'), textReply('{"ok": true}')], rejectResponseFormat: true });
    expect((await collectResponse(client, structured, signal())).text).toBe('{"ok": false}');
    expect(server.requests.map((r) => r.body.response_format !== undefined)).toEqual([true, false]);
    await collectResponse(client, structured, signal());
    expect(server.requests.map((r) => r.body.response_format !== undefined)).toEqual([true, false, false]);
  });

  it('reports the second 400 when dropping response_format did not help', async () => {
    const { server, client } = await serve({ script: () => errorReply(400, { message: 'context length exceeded' }) });
    const error = await collectResponse(client, structured, signal()).catch((e: unknown) => e);
    expect(ModelError.is(error, 'badRequest')).toBe(true);
    expect((error as Error).message).toContain('context length exceeded');
    expect(server.requests).toHaveLength(2);
  });

  it('drops stream_options for servers that reject it (Ollama, older vLLM), once per client', async () => {
    const { server, client } = await serve({ script: [textReply('one'), textReply('two')], rejectStreamOptions: true });
    expect((await collectResponse(client, { messages: [{ role: 'user', content: 'a' }] }, signal())).text).toBe('one');
    expect((await collectResponse(client, { messages: [{ role: 'user', content: 'b' }] }, signal())).text).toBe('two');
    expect(server.requests.map((r) => r.body.stream_options !== undefined)).toEqual([true, false, false]);
  });

  it('switches max_tokens to max_completion_tokens when the server asks for it', async () => {
    const { server, client } = await serve({
      script: (req) =>
        req.body.max_tokens !== undefined
          ? errorReply(400, { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." })
          : textReply('ok'),
    });
    await collectResponse(client, { messages: [{ role: 'user', content: 'a' }], maxTokens: 50 }, signal());
    expect(server.requests.at(-1)!.body).toMatchObject({ max_completion_tokens: 50 });
    expect(server.requests.at(-1)!.body.max_tokens).toBeUndefined();
  });

  it('sends a placeholder key when none is configured', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const { server, client } = await serve({ script: [textReply('ok')] });
      await collectResponse(client, { messages: [{ role: 'user', content: 'a' }] }, signal());
      expect(server.requests[0]!.headers.authorization).toBe('Bearer not-needed');
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it('turns an error event inside the stream into a ModelError, after the text already shown', async () => {
    const { client } = await serve({ script: [textReply('partial', { failMidStream: 'the GPU caught fire' })] });
    const shown: string[] = [];
    const error = await collectResponse(client, { messages: [{ role: 'user', content: 'a' }] }, signal(), (d) => shown.push(d)).catch((e: unknown) => e);
    expect(shown.join('')).toBe('partial');
    expect(ModelError.is(error, 'server')).toBe(true);
    expect((error as Error).message).toContain('the GPU caught fire');
  });

  it('lists models', async () => {
    const { client } = await serve({ script: [], models: ['llama3.2', 'qwen2.5-coder'] });
    expect(await client.listModels(signal())).toEqual(['llama3.2', 'qwen2.5-coder']);
  });

  it('labels itself after the model unless told otherwise', () => {
    expect(new OpenAiModelClient({ model: 'gpt-4.1', apiKey: 'k' }).label).toBe('gpt-4.1 (OpenAI-compatible)');
    expect(new OpenAiModelClient({ model: 'gpt-4.1', apiKey: 'k', label: 'Work GPT' }).label).toBe('Work GPT');
  });
});
