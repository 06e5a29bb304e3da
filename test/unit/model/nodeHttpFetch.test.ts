import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../../src/model/nodeHttpFetch';

// A real HTTP server per test; each route is what some model endpoint or proxy does.
type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
let server: http.Server | undefined;

async function serve(handler: Handler): Promise<string> {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, Buffer.concat(chunks).toString(), res));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

describe('nodeHttpFetch', () => {
  it('sends method, headers and body; answers a standard Response with status and headers', async () => {
    const url = await serve((req, body, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r1' });
      res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, type: req.headers['content-type'], body }));
    });
    const response = await nodeHttpFetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer k', 'Content-Type': 'application/json' }),
      body: '{"a":1}',
    });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.ok, response.headers.get('x-request-id')]).toEqual([201, true, 'r1']);
    expect(await response.json()).toEqual({ method: 'POST', auth: 'Bearer k', type: 'application/json', body: '{"a":1}' });
  });

  it('streams: the first chunk is readable before the server has finished', async () => {
    let finish: (() => void) | undefined;
    const url = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await nodeHttpFetch(url);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    finish?.();
    const rest = await reader.read();
    expect(new TextDecoder().decode(rest.value)).toBe('data: two\n\n');
  });

  it('decodes a gzip body', async () => {
    const url = await serve((req, _body, res) => {
      expect(req.headers['accept-encoding']).toContain('gzip');
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync('compressed hello'));
    });
    expect(await (await nodeHttpFetch(url)).text()).toBe('compressed hello');
  });

  it('follows redirects as fetch does: 307 keeps the POST and its body, 303 becomes a GET', async () => {
    const url = await serve((req, body, res) => {
      if (req.url === '/307') return void res.writeHead(307, { location: '/echo' }).end();
      if (req.url === '/303') return void res.writeHead(303, { location: '/echo' }).end();
      res.end(`${req.method} ${body}`);
    });
    expect(await (await nodeHttpFetch(`${url}/307`, { method: 'POST', body: 'payload' })).text()).toBe('POST payload');
    expect(await (await nodeHttpFetch(`${url}/303`, { method: 'POST', body: 'payload' })).text()).toBe('GET ');
  });

  it('204 has a null body', async () => {
    const url = await serve((_req, _body, res) => void res.writeHead(204).end());
    const response = await nodeHttpFetch(url);
    expect([response.status, response.body]).toEqual([204, null]);
  });

  it('aborting mid-stream errors the reader with an AbortError', async () => {
    const url = await serve((_req, _body, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const controller = new AbortController();
    const response = await nodeHttpFetch(url, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a refused connection rejects with the socket error code', async () => {
    const url = await serve((_req, _body, res) => void res.end());
    const s = server as http.Server;
    server = undefined;
    await new Promise((resolve) => s.close(resolve));
    await expect(nodeHttpFetch(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('a body it does not handle (FormData) goes to the global fetch', async () => {
    const url = await serve((req, body, res) => void res.end(`${req.headers['content-type']?.split(';')[0]} ${body.includes('name="field"')}`));
    const form = new FormData();
    form.append('field', 'value');
    expect(await (await nodeHttpFetch(url, { method: 'POST', body: form })).text()).toBe('multipart/form-data true');
  });
});
