import { describe, expect, it } from 'vitest';
import { isContextTooLong } from '../../../src/model/contextLengthError';
import { ModelError } from '../../../src/model/modelError';

const said = (status: number, text: string, reason: 'badRequest' | 'server' = 'badRequest') =>
  new ModelError(reason, `The model endpoint http://x/v1 rejected the request (${status}). Server said: ${text}`, { status });

describe('isContextTooLong', () => {
  it("recognizes the servers' ways of saying the prompt does not fit", () => {
    expect(isContextTooLong(said(400, 'prompt is too long: 210000 tokens > 200000 maximum'))).toBe(true);
    expect(isContextTooLong(said(400, "This model's maximum context length is 128000 tokens."))).toBe(true);
    expect(isContextTooLong(said(400, 'the request exceeds the available context size'))).toBe(true);
    expect(isContextTooLong(said(413, 'too many tokens'))).toBe(true);
    expect(isContextTooLong(new ModelError('badRequest', 'rejected (400)', { status: 400, cause: { code: 'context_length_exceeded' } }))).toBe(true);
  });

  it('leaves other failures alone', () => {
    expect(isContextTooLong(said(400, 'invalid tool schema'))).toBe(false);
    expect(isContextTooLong(said(500, 'prompt is too long', 'server'))).toBe(false);
    expect(isContextTooLong(new Error('prompt is too long'))).toBe(false);
  });
});
