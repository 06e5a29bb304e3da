import http from 'node:http';
import { Readable } from 'node:stream';
import { zlib } from '../shared/lazyBuiltins';

/**
 * A `fetch` for the `openai` SDK on `node:http`/`node:https` instead of Node's built-in fetch.
 *
 * Why: Node's fetch (undici) parses HTTP with llhttp compiled to WebAssembly, and V8 compiles
 * that module on a background thread during the first model calls. Measured in the headless
 * CLI: ~25 MiB more peak RSS, and every process spawned meanwhile (hooks, Bash) took 3–10 ms
 * instead of ~1.2 ms — fork contends with that thread. node:http has a native parser.
 * It also goes through VS Code's proxy support, which patches node:http/https.
 *
 * Scope: what the SDK sends for Chat Completions and model listing (string or byte bodies).
 * Anything else (FormData, streamed uploads) goes to the global fetch. Returns a standard
 * `Response`; follows up to 5 redirects like fetch; decodes gzip/deflate/br bodies.
 */
export async function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  if (input instanceof Request || !isPlainBody(init.body)) return globalThis.fetch(input, init);
  let url = new URL(input);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body ?? undefined;
  const headers = new Headers(init.headers);
  for (let redirects = 0; ; redirects++) {
    const response = await send(url, method, headers, body, init.signal ?? undefined);
    const location = response.headers.get('location');
    if (!isRedirect(response.status) || location === null || init.redirect === 'manual') return response;
    await response.body?.cancel();
    if (redirects === 5) throw new TypeError(`fetch failed: too many redirects (last: ${url.href})`);
    if (init.redirect === 'error') throw new TypeError(`fetch failed: redirected to ${location}`);
    url = new URL(location, url);
    // As fetch does: 303, and 301/302 after a POST, repeat as a GET without a body.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
      headers.delete('content-length');
    }
  }
}

type PlainBody = string | Uint8Array | ArrayBuffer | null | undefined;

function isPlainBody(body: unknown): body is PlainBody {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

async function send(url: URL, method: string, headers: Headers, body: PlainBody, signal: AbortSignal | undefined): Promise<Response> {
  // node:https (with tls) loads on the first https request: a local model server never needs it.
  const transport = url.protocol === 'https:' ? (await import('node:https')).default : url.protocol === 'http:' ? http : undefined;
  if (transport === undefined) throw new TypeError(`fetch failed: unsupported protocol ${url.protocol}`);
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => {
    outgoing[name] = value;
  });
  // fetch asks for compression; so do we, and decode below.
  outgoing['accept-encoding'] ??= 'gzip, deflate, br';
  const payload =
    body === undefined || body === null
      ? undefined
      : typeof body === 'string'
        ? Buffer.from(body)
        : Buffer.from(body instanceof ArrayBuffer ? new Uint8Array(body) : body);
  if (payload !== undefined) outgoing['content-length'] = String(payload.length);

  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(url, { method, headers: outgoing, signal }, (incoming) => {
      const status = incoming.statusCode ?? 0;
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) responseHeaders.append(incoming.rawHeaders[i] ?? '', incoming.rawHeaders[i + 1] ?? '');
      if (NULL_BODY.has(status) || method === 'HEAD') {
        incoming.resume();
        resolve(new Response(null, { status, statusText: incoming.statusMessage ?? '', headers: responseHeaders }));
        return;
      }
      const decoded = decode(incoming, responseHeaders.get('content-encoding'));
      if (signal !== undefined) {
        // As with fetch, aborting after the headers errors the body with an AbortError
        // (node:http alone would report a reset connection).
        const onAbort = (): void => void decoded.destroy(abortError(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        decoded.once('close', () => signal.removeEventListener('abort', onAbort));
      }
      const stream = Readable.toWeb(decoded) as ReadableStream<Uint8Array>;
      resolve(new Response(stream, { status, statusText: incoming.statusMessage ?? '', headers: responseHeaders }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === 'AbortError' ? reason : new DOMException('This operation was aborted', 'AbortError');
}

function decode(incoming: http.IncomingMessage, encoding: string | null): Readable {
  const codec = encoding?.trim().toLowerCase();
  const decoder =
    codec === 'gzip' || codec === 'x-gzip'
      ? zlib().createGunzip()
      : codec === 'deflate'
        ? zlib().createInflate()
        : codec === 'br'
          ? zlib().createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return incoming;
  // A socket error mid-body must reach the reader, not vanish in the pipe.
  incoming.on('error', (error) => decoder.destroy(error));
  return incoming.pipe(decoder);
}
