import { describe, expect, it } from 'vitest';
import { autoCompactThreshold, DEFAULT_CONTEXT_WINDOW, knownContextWindow, resolveContextWindow } from '../../../src/agent/contextWindow';

describe('auto-compaction threshold', () => {
  it("is Claude Code's: window − min(max output, 20,000) − 13,000", () => {
    expect(autoCompactThreshold(200_000)).toBe(167_000);
    expect(autoCompactThreshold(200_000, 64_000)).toBe(167_000);
    expect(autoCompactThreshold(200_000, 8_000)).toBe(179_000);
    expect(autoCompactThreshold(100_000)).toBe(67_000);
    expect(autoCompactThreshold(1_000_000)).toBe(967_000);
  });

  it('never falls below half of a small window, where the fixed reserves would leave nothing', () => {
    expect(autoCompactThreshold(32_000)).toBe(16_000);
    expect(autoCompactThreshold(8_192)).toBe(4_096);
  });
});

describe('context window', () => {
  it('a configured window wins; otherwise the known window of the model; otherwise 200,000', () => {
    expect(resolveContextWindow(64_000, 'gpt-4.1')).toBe(64_000);
    expect(resolveContextWindow(undefined, 'gpt-4.1-mini')).toBe(1_047_576);
    expect(resolveContextWindow(0, 'claude-sonnet-4-5')).toBe(200_000);
    expect(resolveContextWindow(undefined, 'gpt-4o')).toBe(128_000);
    expect(resolveContextWindow(undefined, 'qwen2.5-coder')).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(resolveContextWindow(undefined, undefined)).toBe(200_000);
    expect(knownContextWindow('my-local-model')).toBeUndefined();
  });
});
