import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/adversarial: the security suite (issue 12), generated hostile cases that keep every closed bypass closed.
    include: ['test/unit/**/*.test.ts', 'test/adversarial/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
