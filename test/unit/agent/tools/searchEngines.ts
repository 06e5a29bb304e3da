import { RipgrepLocator } from '../../../../src/agent/tools/ripgrep';

/**
 * The two engines Grep and Glob run on, for `describe.each`: real ripgrep (from PATH; CI
 * installs Debian's `ripgrep`) and the JavaScript fallback. A missing rg fails the ripgrep
 * tests loudly (the locator is told to throw), never skips them.
 */
export const RG_ENGINE = {
  name: 'ripgrep' as const,
  ripgrep: new RipgrepLocator({
    searchPath: true,
    onDiagnostic: (message) => {
      throw new Error(`ripgrep tests need a real rg on PATH (apt-get install ripgrep): ${message}`);
    },
  }),
};

/** Both engines, ripgrep first. */
export const ENGINES = [RG_ENGINE, { name: 'javascript' as const, ripgrep: false as const }];
