import { describe, expect, it } from 'vitest';
import { LiteFormData, LiteHeaders, LiteRequest, LiteResponse } from '../../../src/model/liteFetchTypes';
import type { LiteHeadersInit } from '../../../src/model/liteFetchTypes';

/** The same operations on a real Headers and a LiteHeaders, and what each then shows. */
function both(init?: LiteHeadersInit, ops: (h: Headers | LiteHeaders) => void = () => undefined): [unknown, unknown] {
  const view = (h: Headers | LiteHeaders): unknown => ({ entries: [...h.entries()], cookies: h.getSetCookie(), spread: [...h] });
  const real = new Headers(init);
  const lite = new LiteHeaders(init);
  ops(real);
  ops(lite);
  return [view(lite), view(real)];
}

describe('LiteHeaders behaves like the WHATWG Headers the SDK expects', () => {
  it.each<[string, LiteHeadersInit | undefined, (h: Headers | LiteHeaders) => void]>([
    ['names are case-insensitive; appended values join with ", "; iteration is sorted', { 'X-B': '1', 'x-a': '2' }, (h) => h.append('X-b', '3')],
    [
      'set replaces, delete removes, values are trimmed',
      [
        ['Accept', ' a '],
        ['Content-Type', 'b'],
      ],
      (h) => (h.set('accept', 'c'), h.delete('CONTENT-TYPE')),
    ],
    ['set-cookie values stay apart', undefined, (h) => (h.append('Set-Cookie', 'a=1'), h.append('set-cookie', 'b=2'), h.append('x', 'y'))],
    [
      'copies another Headers, set-cookie included',
      new Headers([
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['k', 'v'],
      ]),
      () => undefined,
    ],
  ])('%s', (_name, init, ops) => {
    const [lite, real] = both(init, ops);
    expect(lite).toEqual(real);
  });

  it('get and has read any case; invalid names and values are refused as fetch refuses them', () => {
    const h = new LiteHeaders({ 'Content-Type': 'text/plain' });
    expect([h.get('content-type'), h.has('CONTENT-TYPE'), h.get('missing')]).toEqual(['text/plain', true, null]);
    expect(() => new Headers({ 'bad name': 'x' })).toThrow(TypeError);
    expect(() => new LiteHeaders({ 'bad name': 'x' })).toThrow(TypeError);
    expect(() => new LiteHeaders().set('x', 'a\nb')).toThrow(TypeError);
  });

  it('instanceof holds for real and lite headers alike, not for plain objects', () => {
    expect(new Headers() instanceof LiteHeaders).toBe(true);
    expect(new LiteHeaders() instanceof LiteHeaders).toBe(true);
    expect({ get: () => null } instanceof LiteHeaders).toBe(false);
    expect(Object.prototype.toString.call(new LiteHeaders())).toBe('[object Headers]');
  });
});

describe('LiteResponse reads a body as a fetch Response does', () => {
  const stream = (...parts: string[]): ReadableStream<Uint8Array> =>
    new ReadableStream({
      start(c) {
        for (const p of parts) c.enqueue(new TextEncoder().encode(p));
        c.close();
      },
    });

  it('status, ok, headers and text/json match the real Response for the same body', async () => {
    for (const status of [200, 404]) {
      const init = { status, statusText: 'S', headers: { 'content-type': 'application/json' } };
      const real = new Response(stream('{"a":', '[1,2]}'), init);
      const lite = new LiteResponse(stream('{"a":', '[1,2]}'), init);
      expect([lite.status, lite.statusText, lite.ok, lite.headers.get('content-type')]).toEqual([
        real.status,
        real.statusText,
        real.ok,
        real.headers.get('content-type'),
      ]);
      expect(await lite.json()).toEqual(await real.json());
    }
  });

  it('the body reads once; clone gives a second reader; no body reads as empty', async () => {
    const r = new LiteResponse(stream('héllo'));
    const copy = r.clone();
    expect(await r.text()).toBe('héllo');
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
    expect(await copy.text()).toBe('héllo');
    const empty = new LiteResponse(null, { status: 204 });
    expect([empty.body, await empty.text(), empty.ok]).toEqual([null, '', true]);
  });

  it('instanceof holds for real and lite responses', () => {
    expect(new Response('x') instanceof LiteResponse).toBe(true);
    expect(new LiteResponse('x') instanceof LiteResponse).toBe(true);
  });
});

describe('LiteFormData / LiteRequest', () => {
  it('check instanceof by tag and build the real class with new', () => {
    const form = new (LiteFormData as unknown as new () => FormData)();
    expect(form).toBeInstanceOf(FormData);
    expect(new FormData() instanceof LiteFormData).toBe(true);
    expect({} instanceof LiteFormData).toBe(false);
    expect(new Request('http://x.invalid/') instanceof LiteRequest).toBe(true);
    expect(new URL('http://x.invalid/') instanceof LiteRequest).toBe(false);
  });
});
