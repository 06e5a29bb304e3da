import { constants, promises as fs } from 'node:fs';
import path from 'node:path';

/** Why a file was not written: a link on the way, or a file that is also another name. */
export class LinkedPathError extends Error {
  constructor(
    readonly reason: 'symlink' | 'hardLink' | 'outside' | 'notAFile',
    /** The path that is the link (or the file itself). */
    readonly linkPath: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  static is(error: unknown): error is LinkedPathError {
    return error instanceof LinkedPathError;
  }
}

// Not defined on Windows (no symlink follow flag there): the lstat walk below still refuses links.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Refuses when `file`, or any directory between `root` (exclusive: the person opened it) and
 * `file`, is a symbolic link, so a write lands in the file named and never where a link leads
 * (a repository's `.claude/settings.local.json` → `~/.claude/settings.json`). Missing parts are
 * fine (they would be created as plain entries). Throws LinkedPathError naming the link.
 */
export async function assertNoLinkBelow(root: string, file: string): Promise<void> {
  const rel = path.relative(root, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new LinkedPathError('outside', file, `${file} is not inside ${root}`);
  }
  let at = root;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    let stat;
    try {
      stat = await fs.lstat(at);
    } catch {
      return; // missing from here down: nothing to follow
    }
    if (stat.isSymbolicLink()) {
      const target = await fs.readlink(at).catch(() => '?');
      throw new LinkedPathError('symlink', at, `${at} is a symbolic link (to ${target}); Hookwise writes only to the real file it names, never through a link`);
    }
  }
}

/** The file's text, or '' when it does not exist; refuses to follow a symlink at the file itself. */
export async function readFileNoFollow(file: string): Promise<string> {
  let handle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new LinkedPathError('symlink', file, `${file} is a symbolic link; Hookwise does not read through it`);
    throw error;
  }
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Writes `text` to `file` below `root`: no symlink on the way ({@link assertNoLinkBelow}), the
 * final open with O_NOFOLLOW, and the opened file must be a regular file with no other name
 * (a hard link to a file elsewhere would be written there too). Creates missing directories.
 */
export async function writeFileNoFollow(root: string, file: string, text: string): Promise<void> {
  await assertNoLinkBelow(root, file);
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Made between the check and mkdir? Check again now that the directories exist.
  await assertNoLinkBelow(root, file);
  let handle;
  try {
    handle = await fs.open(file, constants.O_WRONLY | constants.O_CREAT | O_NOFOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new LinkedPathError('symlink', file, `${file} is a symbolic link; Hookwise writes only to the real file it names`);
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new LinkedPathError('notAFile', file, `${file} is not a regular file`);
    if (stat.nlink > 1)
      throw new LinkedPathError('hardLink', file, `${file} has ${stat.nlink} names (a hard link); Hookwise does not write a file that is also elsewhere`);
    await handle.truncate(0);
    await handle.write(text, 0, 'utf8');
  } finally {
    await handle.close();
  }
}
