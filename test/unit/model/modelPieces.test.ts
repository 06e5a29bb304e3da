// The adapter's pure parts: error type, backoff arithmetic, tool-call assembly quirks.
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/model/modelError';
import { backoffDelayMs, defaultRetryPolicy, retryAfterMs, sleepWithAbort } from '../../../src/model/retryPolicy';
import { ToolCallAssembler } from '../../../src/model/toolCallAssembler';

const headers = (h: Record<string, string>): { get(name: string): string | null } => ({ get: (n) => h[n] ?? null });

describe('ModelError', () => {
  it('carries reason, status and its own name; is() narrows by reason', () => {
    const e = new ModelError('auth', 'bad key', { status: 401 });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ModelError');
    expect(e).toMatchObject({ reason: 'auth', status: 401, retryable: false });
    expect(ModelError.is(e)).toBe(true);
    expect(ModelError.is(e, 'auth')).toBe(true);
    expect(ModelError.is(e, 'server')).toBe(false);
    expect(ModelError.is(new Error('x'))).toBe(false);
    class Sub extends ModelError {}
    expect(new Sub('timeout', 't').name).toBe('Sub');
  });
});

describe('retryPolicy', () => {
  it('grows exponentially with jitter between half and all of the step, capped', () => {
    const p = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((r) => backoffDelayMs(p, r, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect([0, 1, 2].map((r) => backoffDelayMs(p, r, () => 0))).toEqual([50, 100, 200]);
  });

  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after': new Date(10_000).toUTCString() }), 7_000)).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('sleepWithAbort rejects with the reason as soon as the signal aborts', async () => {
    const c = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => c.abort(reason), 10);
    await expect(sleepWithAbort(10_000, c.signal)).rejects.toBe(reason);
  });
});

describe('ToolCallAssembler', () => {
  const ids = (): (() => string) => {
    let n = 0;
    return () => `gen_${++n}`;
  };

  it('joins fragments by index and keeps the start order', () => {
    const a = new ToolCallAssembler(ids());
    a.add([{ index: 0, id: 'a', function: { name: 'Bash', arguments: '' } }]);
    a.add([{ index: 1, id: 'b', function: { name: 'Read', arguments: '{"fi' } }]);
    a.add([{ index: 0, function: { arguments: '{"command":' } }]);
    a.add([{ index: 1, function: { arguments: 'le_path":"x"}' } }]);
    a.add([{ index: 0, function: { arguments: '"ls"}' } }]);
    expect(a.finish()).toEqual([
      { id: 'a', name: 'Bash', argumentsText: '{"command":"ls"}' },
      { id: 'b', name: 'Read', argumentsText: '{"file_path":"x"}' },
    ]);
  });

  it('handles servers that omit index, reuse index 0 with new ids, or omit ids and arguments', () => {
    const a = new ToolCallAssembler(ids());
    // Several whole calls in one delta without index (older Ollama).
    a.add([{ function: { name: 'Glob', arguments: '{"pattern":"*"}' } }, { function: { name: 'Grep' } }]);
    // Index 0 reused with a fresh id (some Gemini-compatible proxies).
    a.add([{ index: 0, id: 'x1', function: { name: 'Bash', arguments: '{}' } }]);
    a.add([{ index: 0, id: 'x2', function: { name: 'Bash', arguments: '{"command":"pwd"}' } }]);
    expect(a.finish()).toEqual([
      { id: 'gen_1', name: 'Glob', argumentsText: '{"pattern":"*"}' },
      { id: 'gen_2', name: 'Grep', argumentsText: '{}' },
      { id: 'x1', name: 'Bash', argumentsText: '{}' },
      { id: 'x2', name: 'Bash', argumentsText: '{"command":"pwd"}' },
    ]);
  });
});
