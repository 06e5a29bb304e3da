import { describe, expect, it } from 'vitest';
import { formatTokens, noModel } from '../../../media/src/headerText';

describe('chat header', () => {
  it('"Choose a model…" is for a chat without a model only', () => {
    expect(noModel('')).toBe(true);
    expect(noModel('No model')).toBe(true);
    expect(noModel('Playground (scripted)')).toBe(false);
    expect(noModel('gpt-4.1 · openai-compatible')).toBe(false);
  });

  it('the context meter reads tokens short', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1500)).toBe('1.5k');
    expect(formatTokens(128_000)).toBe('128k');
  });
});
