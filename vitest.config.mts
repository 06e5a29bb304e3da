import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one; most files wait on child processes and
    // local servers, so on a 2-core machine 3 workers finish the suite in ~60% of the time.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // test/unit: functions and classes in-process, one folder per src/ folder.
          // test/scenarios: whole agent lifecycles run in-process.
          // test/adversarial: the security suite: generated hostile cases that keep every closed bypass closed.
          include: ['test/unit/**/*.test.ts', 'test/scenarios/**/*.test.ts', 'test/adversarial/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          // test/system: the real `hookwise` process, built from this tree, against a local model server.
          include: ['test/system/**/*.test.ts'],
        },
      },
    ],
  },
});
