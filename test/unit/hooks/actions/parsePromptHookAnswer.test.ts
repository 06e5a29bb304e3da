import { describe, expect, it } from 'vitest';
import { parsePromptHookAnswer } from '../../../../src/hooks/actions/parsePromptHookAnswer';

describe('parsePromptHookAnswer', () => {
  it.each([
    ['{"ok":true}', { ok: true }],
    ['  {"ok": false, "reason": "no"}\n', { ok: false, reason: 'no' }],
    ['```json\n{"ok":false,"reason":"x"}\n```', { ok: false, reason: 'x' }],
    ['```\n{"ok":true}\n```', { ok: true }],
    ['Verdict: {"ok":false,"reason":"has a } brace"} done', { ok: false, reason: 'has a } brace' }],
    ['{"ok":true,"reason":null}', { ok: true, reason: null }],
    ['{"ok":true,"extra":1}', { ok: true }],
    // Tolerant by design: the first {…} object wins, wherever it is.
    ['[{"ok":true}]', { ok: true }],
  ])('%j → %j', (text, answer) => {
    expect(parsePromptHookAnswer(text)).toEqual({ ok: true, answer });
  });
  it.each(['', 'yes, it is fine', '{"ok":"yes"}', '{"ok": tru', '{"reason":"x"}'])('%j is not an answer', (text) => {
    expect(parsePromptHookAnswer(text).ok).toBe(false);
  });
  it('says what was wrong with JSON of the wrong shape', () => {
    expect(parsePromptHookAnswer('{"ok":"yes"}')).toEqual({ ok: false, problem: expect.stringContaining('ok:') });
  });
});
