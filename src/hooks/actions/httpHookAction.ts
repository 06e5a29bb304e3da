import http from 'node:http';
import type https from 'node:https';
import type { HookAction, HookActionContext, HookActionResult, HookRawOutput } from '../hookAction';
import { proceed } from '../hookOutcome';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../../shared/processLauncher';
import { interpretCommandResult } from './interpretCommandResult';
import { expandHeaderValue } from './httpHookPolicy';

/** Default time limit of an http hook: the same as a command hook's (60 s). */
export const HTTP_HOOK_DEFAULT_TIMEOUT_MS = 60_000;

/** Options of an {@link HttpHookAction}. */
export interface HttpHookOptions {
  /** Header values as written; `$VAR` / `${VAR}` are expanded for names in `allowedEnvVars` only. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Variables the headers may read (the handler's list, already narrowed by `httpHookAllowedEnvVars`). */
  readonly allowedEnvVars?: readonly string[];
  /** Cap on the response body in bytes (default 1 MiB, like command stdout). */
  readonly maxResponseBytes?: number;
  /** Environment the header variables are read from; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Characters of a non-2xx response body kept in the error message (the record keeps the body). */
const ERROR_BODY_CHARS = 300;

/**
 * A `"type": "http"` hook: POSTs the event JSON to `url` and reads the response body exactly
 * like a command hook's stdout with exit 0 (Claude's JSON output, or plain text; an empty 2xx
 * body is a success without a decision). A non-2xx status, a refused connection or a body over
 * the cap is a failure, non-blocking unless the hook set `continueOnFailure: false`; as in
 * Claude Code, a status code alone never blocks. Redirects are not followed (the allowlist
 * checked `url`, not where it points). Aborting `ctx.signal` destroys the request. Never throws.
 */
export class HttpHookAction implements HookAction {
  readonly kind = 'http';
  readonly label: string;
  /** Claude Code dedups http hooks by URL. */
  readonly dedupKey: string;
  readonly defaultTimeoutMs = HTTP_HOOK_DEFAULT_TIMEOUT_MS;

  constructor(
    readonly url: string,
    private readonly options: HttpHookOptions = {},
  ) {
    this.label = url;
    this.dedupKey = `http ${url}`;
  }

  async run(input: Readonly<Record<string, unknown>>, ctx: HookActionContext): Promise<HookActionResult> {
    let body: string;
    try {
      body = JSON.stringify(input);
    } catch (error) {
      return {
        status: 'failed',
        outcome: proceed(),
        error: `could not serialize the hook input as JSON: ${(error as Error).message}`,
        failureReason: 'inputNotSerializable',
      };
    }
    let target: URL;
    try {
      target = new URL(this.url);
    } catch {
      return { status: 'failed', outcome: proceed(), error: `not a valid URL: ${this.url}` };
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return { status: 'failed', outcome: proceed(), error: `only http: and https: URLs are supported, got ${target.protocol}` };
    // The binder already refuses these (httpHookPolicy.ts); here too, so no path sends user info as Basic auth.
    if (target.username !== '' || target.password !== '')
      return { status: 'failed', outcome: proceed(), error: 'http hook not called: the URL has user info before its host; put credentials in headers' };
    const cap = this.options.maxResponseBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    // node:https (with tls) loads on the first https hook, not with every run.
    const client = target.protocol === 'https:' ? (await import('node:https')).default : http;
    const response = await post(client, target, body, this.headers(), cap, ctx.signal);
    const raw: HookRawOutput = {
      stdout: response.body,
      stderr: '',
      exitCode: null,
      ...(response.truncated ? { stdoutTruncated: true } : {}),
      http: { url: this.url, ...(response.status !== undefined ? { status: response.status } : {}) },
    };
    if (response.aborted) return { status: 'cancelled', outcome: proceed(), error: 'cancelled: the request was stopped (timeout or Stop)', raw };
    if (response.error !== undefined) return { status: 'failed', outcome: proceed(), error: `could not reach ${this.url}: ${response.error}`, raw };
    const status = response.status ?? 0;
    if (status < 200 || status > 299) {
      const head = response.body.trim().slice(0, ERROR_BODY_CHARS);
      return { status: 'failed', outcome: proceed(), error: `HTTP ${status} from ${this.url}${head ? `: ${head}` : ''}`, raw };
    }
    const cut = { stdoutTruncated: response.truncated, maxOutputBytes: cap };
    return { ...interpretCommandResult(ctx.event, 0, response.body, '', this.url, undefined, cut), raw };
  }

  private headers(): Record<string, string> {
    const allowed = new Set(this.options.allowedEnvVars ?? []);
    const env = this.options.env ?? process.env;
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.options.headers ?? {})) out[name] = expandHeaderValue(value, allowed, env);
    return out;
  }
}

interface PostResult {
  readonly status?: number;
  readonly body: string;
  readonly truncated: boolean;
  readonly aborted: boolean;
  readonly error?: string;
}

/** One POST; resolves with whatever came back (never rejects). The body is read up to `cap` bytes, then the socket is closed. */
function post(
  client: typeof http | typeof https,
  target: URL,
  body: string,
  headers: Record<string, string>,
  cap: number,
  signal: AbortSignal,
): Promise<PostResult> {
  if (signal.aborted) return Promise.resolve({ body: '', truncated: false, aborted: true });
  return new Promise<PostResult>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let status: number | undefined;
    let settled = false;
    const finish = (extra: Partial<PostResult>): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve({ ...(status !== undefined ? { status } : {}), body: Buffer.concat(chunks, size).toString('utf8'), truncated, aborted: false, ...extra });
    };
    const onAbort = (): void => {
      finish({ aborted: true });
      request.destroy();
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        status = response.statusCode;
        response.on('data', (chunk: Buffer) => {
          const room = cap - size;
          if (chunk.length <= room) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          // Over the cap: keep what fits and stop reading (fails closed like cut command stdout).
          if (room > 0) {
            chunks.push(chunk.subarray(0, room));
            size = cap;
          }
          truncated = true;
          finish({});
          response.destroy();
        });
        response.on('end', () => finish({}));
        response.on('error', (error) => finish({ error: error.message }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
    signal.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}
