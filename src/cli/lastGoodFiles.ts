import { createHash } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { transcriptDirFor } from '../agent/transcriptLocation';
import { MAX_CONFIG_FILE_BYTES } from '../configFiles/configLimits';
import type { LastGoodStore } from '../hooks/config/lastGoodConfig';

const entrySchema = z.object({ file: z.string(), text: z.string().max(MAX_CONFIG_FILE_BYTES) });

/**
 * The CLI's copy of the last good version of each hook config file, per project:
 * `$HOOKWISE_HOME/projects/<project-slug>/last-good-config/<sha256 of the path>.json` (beside the
 * project's transcripts, default `~/.hookwise`). Outside the workspace, owner-only, so a
 * repository cannot plant a "last good" version; a copy that cannot be read counts as none.
 */
export class FileLastGoodStore implements LastGoodStore {
  constructor(private readonly dir: string) {}

  /** The store of the project at `projectDir`. */
  static forProject(projectDir: string, env: NodeJS.ProcessEnv): FileLastGoodStore {
    return new FileLastGoodStore(path.join(transcriptDirFor(projectDir, env), 'last-good-config'));
  }

  async get(file: string): Promise<string | undefined> {
    try {
      const parsed = entrySchema.safeParse(JSON.parse(await readFile(this.pathOf(file), 'utf8')));
      return parsed.success && parsed.data.file === file ? parsed.data.text : undefined;
    } catch {
      return undefined;
    }
  }

  async remember(file: string, text: string | undefined): Promise<void> {
    const target = this.pathOf(file);
    try {
      if (text === undefined) {
        // One syscall; a missing copy (the usual case: most config files do not exist) throws
        // ENOENT, ignored below. `rm` would lstat first and load its recursive-removal code.
        await unlink(target);
        return;
      }
      if ((await this.get(file)) === text) return;
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      // Written whole then renamed: a run killed mid-write never leaves half a "last good" file.
      const temp = `${target}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify({ file, text }), { mode: 0o600 });
      await rename(temp, target);
    } catch {
      // Best effort: without a copy the next broken load says its hooks are not in force.
    }
  }

  private pathOf(file: string): string {
    return path.join(this.dir, `${createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 32)}.json`);
  }
}
