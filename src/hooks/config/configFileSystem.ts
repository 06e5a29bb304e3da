import { readdir, readFile } from 'node:fs/promises';

/**
 * The file access the loader needs. The default uses node:fs; the VS Code glue may pass one
 * over `workspace.fs` (remote workspaces), tests pass an in-memory one.
 */
export interface ConfigFileSystem {
  /** The file's text, or undefined when it does not exist. Other failures throw. */
  readTextFile(file: string): Promise<string | undefined>;
  /** Entry names of a directory, or [] when it does not exist. */
  listDirectory(dir: string): Promise<string[]>;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** ConfigFileSystem over node:fs. */
export const nodeConfigFileSystem: ConfigFileSystem = {
  async readTextFile(file) {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
  async listDirectory(dir) {
    try {
      return await readdir(dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  },
};
