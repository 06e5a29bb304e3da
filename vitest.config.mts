import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/adversarial: the security suite: generated hostile cases that keep every closed bypass closed.
    // test/scenarios: whole agent lifecycles (sessions, subagents, compaction) through the real CLI or runtime.
    include: ['test/unit/**/*.test.ts', 'test/scenarios/**/*.test.ts', 'test/adversarial/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
