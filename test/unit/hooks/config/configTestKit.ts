import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigFileSystem } from '../../../../src/configFiles/configFileSystem';
import type { LoadedHook } from '../../../../src/hooks/config/loadedHook';
import { handlerBody } from '../../../../src/hooks/config/hookConfigSchema';

/** Root of test/fixtures/config. */
export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/config');

/** An in-memory ConfigFileSystem: absolute path → text. Directories are implied by the paths. */
export function memoryFs(files: Record<string, string>): ConfigFileSystem {
  return {
    async readTextFile(file) {
      return files[file];
    },
    async listDirectory(dir) {
      const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
      return Object.keys(files)
        .filter((f) => f.startsWith(prefix) && !f.slice(prefix.length).includes(path.sep))
        .map((f) => f.slice(prefix.length));
    },
  };
}

/** The command or prompt of a hook, for compact assertions. */
export function bodyOf(hook: LoadedHook): string {
  return handlerBody(hook.handler);
}
