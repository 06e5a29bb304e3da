/**
 * `Headers` and `Response` for the headless CLI's model client, without Node's undici.
 *
 * Why: on Node 20–24 the first read of the global `Headers` or `Response` loads all of undici
 * (measured: `node -e 'globalThis.Headers'` ≈ 1.4–1.6× `node -e ''`), a third of an empty
 * CLI run, although the client never uses Node's fetch (see nodeHttpFetch.ts). The CLI bundle
 * puts these classes in place of the globals inside the `openai` SDK and nodeHttpFetch.ts
 * (esbuild.mjs, liteFetchTypesPlugin); everywhere else, and in unit tests, the globals stay.
 *
 * Contract: what the WHATWG classes do for what the SDK and nodeHttpFetch call. Headers:
 * case-insensitive names, values joined with ", " (set-cookie kept apart), iteration sorted by
 * name; `instanceof LiteHeaders` also holds for a real `Headers`, so the SDK keeps reading
 * those as headers. Response: status, ok, headers, a web ReadableStream body read once.
 */
export class LiteHeaders {
  private readonly map = new Map<string, string[]>();

  constructor(init?: LiteHeadersInit | null) {
    if (init === undefined || init === null) return;
    if (isHeadersLike(init)) {
      init.forEach((value, name) => this.append(name, value));
      const cookies = typeof init.getSetCookie === 'function' ? init.getSetCookie() : [];
      if (cookies.length > 0) this.map.set('set-cookie', [...cookies]);
    } else if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
        this.append(String(pair[0]), String(pair[1]));
      }
    } else {
      for (const [name, value] of Object.entries(init)) this.append(name, String(value));
    }
  }

  /** True for a LiteHeaders and for a real `Headers` (checked without loading undici). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value !== null && typeof value === 'object' && Object.prototype.toString.call(value) === '[object Headers]';
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const list = this.map.get(key);
    const clean = normalizeValue(value);
    if (list) list.push(clean);
    else this.map.set(key, [clean]);
  }

  delete(name: string): void {
    this.map.delete(checkedName(name));
  }

  get(name: string): string | null {
    const list = this.map.get(checkedName(name));
    return list === undefined ? null : list.join(', ');
  }

  getSetCookie(): string[] {
    return [...(this.map.get('set-cookie') ?? [])];
  }

  has(name: string): boolean {
    return this.map.has(checkedName(name));
  }

  set(name: string, value: string): void {
    this.map.set(checkedName(name), [normalizeValue(value)]);
  }

  forEach(callback: (value: string, key: string, parent: LiteHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.map.keys()].sort()) {
      const list = this.map.get(name) ?? [];
      if (name === 'set-cookie') for (const cookie of list) yield [name, cookie];
      else yield [name, list.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** What `new Headers(init)` accepts. */
export type LiteHeadersInit = ConstructorParameters<typeof Headers>[0];

/** The parts of `ResponseInit` nodeHttpFetch gives. */
export interface LiteResponseInit {
  readonly status?: number;
  readonly statusText?: string;
  readonly headers?: LiteHeadersInit;
}

/**
 * A fetch `Response` over a web ReadableStream (or no body). The body reads once, as fetch's
 * does; `clone()` tees it.
 */
export class LiteResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly url = '';
  private stream: ReadableStream<Uint8Array> | null;
  private used = false;

  constructor(body: ReadableStream<Uint8Array> | string | null = null, init: LiteResponseInit = {}) {
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = init.headers instanceof LiteHeaders ? (init.headers as LiteHeaders) : new LiteHeaders(init.headers);
    this.ok = this.status >= 200 && this.status <= 299;
    this.stream = typeof body === 'string' ? streamOf(new TextEncoder().encode(body)) : body;
  }

  /** True for a LiteResponse and for a real `Response`. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value !== null && typeof value === 'object' && Object.prototype.toString.call(value) === '[object Response]';
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.stream;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.used) throw new TypeError('Body is unusable: Body has already been read');
    this.used = true;
    if (this.stream === null) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  clone(): LiteResponse {
    if (this.used) throw new TypeError('Response.clone: Body has already been consumed.');
    let copy: ReadableStream<Uint8Array> | null = null;
    if (this.stream !== null) [this.stream, copy] = this.stream.tee();
    return new LiteResponse(copy, { status: this.status, statusText: this.statusText, headers: new LiteHeaders(this.headers) });
  }
}

function isHeadersLike(init: NonNullable<LiteHeadersInit>): init is Headers {
  return Object.prototype.toString.call(init) === '[object Headers]';
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkedName(name: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`Headers: invalid header name ${JSON.stringify(name)}`);
  return name.toLowerCase();
}

function normalizeValue(value: string): string {
  const text = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(text)) throw new TypeError(`Headers: invalid header value ${JSON.stringify(text)}`);
  return text;
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * A stand-in for a global class of undici's (`FormData`, `Request`): `instanceof` checks the
 * value's tag without loading undici; `new` builds the real one (loading undici then).
 */
export function lazyGlobalClass<T extends 'FormData' | 'Request'>(name: T): (typeof globalThis)[T] {
  const tag = `[object ${name}]`;
  const stand = function (...args: unknown[]): unknown {
    const Real = globalThis[name] as unknown as new (...a: unknown[]) => unknown;
    return new Real(...args);
  };
  Object.defineProperty(stand, Symbol.hasInstance, {
    value: (value: unknown) => value !== null && typeof value === 'object' && Object.prototype.toString.call(value) === tag,
  });
  return stand as unknown as (typeof globalThis)[T];
}

/** The stand-in for `FormData` (see lazyGlobalClass). */
export const LiteFormData = lazyGlobalClass('FormData');
/** The stand-in for `Request` (see lazyGlobalClass). */
export const LiteRequest = lazyGlobalClass('Request');
