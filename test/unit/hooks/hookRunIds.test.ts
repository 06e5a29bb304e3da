import { describe, expect, it, vi } from 'vitest';

describe('hook run ids', () => {
  it('differ between two loads of the runner (a new window, whose Hook Runs also shows the restored history)', async () => {
    vi.resetModules();
    const first = await import('../../../src/hooks/hookRunRecords');
    vi.resetModules();
    const second = await import('../../../src/hooks/hookRunRecords');
    // Both counters start at 1: without a per-load tag the restored run and the new one would be the same node.
    expect(first.nextOccurrenceId()).not.toBe(second.nextOccurrenceId());
  });
});
