import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: 'forks',
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
