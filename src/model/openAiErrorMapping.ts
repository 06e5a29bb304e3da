/**
 * Turns whatever the `openai` SDK (or the socket under it) threw into a `ModelError` whose
 * message tells the user what to do. The endpoint and model are named because "404" alone
 * does not say whether the model or the URL is wrong.
 */
import { ModelError } from './modelError';
import { thrownMessage } from '../shared/describeThrown';
import type { APIError } from 'openai';
import { openAiSdk, openAiSdkIfLoaded } from './openAiSdk';

/** What the message may mention. */
export interface ModelErrorContext {
  readonly baseURL: string;
  readonly model: string;
}

/** Maps an SDK/transport error to a ModelError (a ModelError passes through unchanged). */
export function toModelError(error: unknown, context: ModelErrorContext): ModelError {
  if (error instanceof ModelError) return error;
  const { baseURL, model } = context;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = openAiSdk();
  if (error instanceof APIUserAbortError) {
    return new ModelError('aborted', 'The model request was cancelled.', { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError('timeout', `The model endpoint ${baseURL} did not answer in time.`, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    return connectionError(error, baseURL);
  }
  if (error instanceof APIError) {
    return fromStatus(error, context);
  }
  if (error instanceof SyntaxError) {
    return new ModelError(
      'protocol',
      `The model endpoint ${baseURL} sent a malformed response (${error.message}). Is it an OpenAI-compatible Chat Completions server?`,
      { cause: error },
    );
  }
  // A dropped stream: undici says TypeError("terminated") with the socket error as cause,
  // node:http an Error("aborted") with code ECONNRESET.
  if (error instanceof Error && ((error instanceof TypeError && error.message === 'terminated') || socketCode(error) !== undefined)) {
    return connectionError(error, baseURL);
  }
  const text = thrownMessage(error);
  return new ModelError('protocol', `The model call to ${baseURL} (model "${model}") failed: ${text}`, { cause: error });
}

function fromStatus(error: APIError, { baseURL, model }: ModelErrorContext): ModelError {
  const status = error.status;
  const detail = serverMessage(error);
  const said = detail === undefined ? '' : ` Server said: ${detail}`;
  const options = { status, cause: error };
  if (status === undefined) {
    // An `{"error": ...}` object inside an otherwise successful stream.
    return new ModelError('server', `The model endpoint ${baseURL} reported an error mid-stream.${said}`, { ...options, retryable: true });
  }
  if (status === 401) {
    return new ModelError('auth', `The model endpoint rejected the API key (401). Set it with "Hookwise: Set API Key" or OPENAI_API_KEY.${said}`, options);
  }
  if (status === 403) {
    return new ModelError(
      'auth',
      `The API key has no access to model "${model}" at ${baseURL} (403). Check the key's project and permissions.${said}`,
      options,
    );
  }
  if (status === 404) {
    const aboutModel = error.code === 'model_not_found' || /model/i.test(detail ?? '');
    return new ModelError(
      'notFound',
      aboutModel
        ? `Model "${model}" was not found at ${baseURL} (404). Check the model name (GET ${baseURL}/models lists them).${said}`
        : `${baseURL}/chat/completions was not found (404). Check the base URL — most servers need it to end with /v1.${said}`,
      options,
    );
  }
  if (status === 429) {
    // OpenAI sends 429 for an exhausted quota too; waiting does not fix that one.
    if (error.code === 'insufficient_quota') {
      return new ModelError('rateLimited', `The API key at ${baseURL} has run out of quota (429). Check the account's plan and billing.${said}`, options);
    }
    return new ModelError('rateLimited', `The model endpoint ${baseURL} is rate limiting requests (429). Wait a moment and try again.${said}`, {
      ...options,
      retryable: true,
    });
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new ModelError('server', `The model endpoint ${baseURL} failed (${status}).${said}`, { ...options, retryable: true });
  }
  return new ModelError('badRequest', `The model endpoint ${baseURL} rejected the request (${status}).${said}`, options);
}

function connectionError(error: Error, baseURL: string): ModelError {
  const code = socketCode(error);
  const host = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? ' — check the host name in the base URL' : ' — is the server running?';
  return new ModelError('connection', `Could not connect to ${baseURL}${host}${code === undefined ? '' : ` (${code})`}`, { cause: error, retryable: true });
}

/** The first `code` like ECONNREFUSED along the cause chain (fetch wraps the socket error twice). */
function socketCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The server's own message in an SDK error (or the ModelError wrapping one), or `''`. */
export function serverMessageOf(error: unknown): string {
  const api = error instanceof ModelError ? error.cause : error;
  const sdk = openAiSdkIfLoaded();
  return sdk !== undefined && api instanceof sdk.APIError ? (serverMessage(api) ?? api.message) : '';
}

/** The server's own message from OpenAI's error JSON (or a plain-text body), trimmed. */
function serverMessage(error: APIError): string | undefined {
  const body = error.error as { message?: unknown } | string | undefined;
  const raw = typeof body === 'string' ? body : typeof body?.message === 'string' ? body.message : undefined;
  if (raw === undefined || raw.trim() === '') return undefined;
  const flat = raw.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
