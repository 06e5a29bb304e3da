import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import { ConfigFileTooLargeError, MAX_CONFIG_FILE_BYTES } from './configLimits';

/**
 * The file access the loader needs. The default uses node:fs; the VS Code glue may pass one
 * over `workspace.fs` (remote workspaces), tests pass an in-memory one.
 */
export interface ConfigFileSystem {
  /** The file's text, or undefined when it does not exist. Other failures throw (ConfigFileTooLargeError over the limit). */
  readTextFile(file: string): Promise<string | undefined>;
  /** Entry names of a directory, or [] when it does not exist. */
  listDirectory(dir: string): Promise<string[]>;
  /**
   * Where a path really is (symlinks resolved), or undefined when it does not exist. Optional: a
   * file system without links (in memory, remote) leaves it out, and paths are taken as named.
   */
  realPath?(file: string): Promise<string | undefined>;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Reads a regular file of at most `maxBytes` as UTF-8. Opened non-blocking and checked with
 * fstat first, so a FIFO or device in place of a config file is refused instead of hanging the
 * load, and a huge file is refused before it is read. Missing = undefined.
 */
export async function readBoundedTextFile(file: string, maxBytes: number = MAX_CONFIG_FILE_BYTES): Promise<string | undefined> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. (Windows has no such flag.)
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new Error('it is a directory, not a file');
    if (!stat.isFile()) throw new Error('it is not a regular file (a pipe, socket or device?)');
    if (stat.size > maxBytes) throw new ConfigFileTooLargeError(file, stat.size);
    // Read at most one byte past the limit: a file that grew since fstat is still caught.
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw new ConfigFileTooLargeError(file, length);
    return buffer.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}

/** ConfigFileSystem over node:fs, with the configLimits.ts size bound. */
export const nodeConfigFileSystem: ConfigFileSystem = {
  readTextFile: (file) => readBoundedTextFile(file),
  async listDirectory(dir) {
    try {
      return await readdir(dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  },
  async realPath(file) {
    try {
      return await realpath(file);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
};
