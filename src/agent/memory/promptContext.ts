import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MemoryFile, MemorySnapshot, MemoryType } from './memoryFiles';

/**
 * What the model is told about where it works and what the project asks of it, appended to the
 * system prompt at session start: an environment block (as Claude Code's `<env>`) and the loaded
 * memory files, each introduced with its path and kind.
 */

/** The `<env>` block: working directory, git repository and branch, platform, today's date. */
export function environmentBlock(cwd: string, now: Date = new Date(), platform: NodeJS.Platform = process.platform): string {
  const git = gitInfo(cwd);
  return [
    '<env>',
    `Working directory: ${cwd}`,
    `Is directory a git repo: ${git ? `Yes${git.branch ? ` (branch ${git.branch})` : ' (detached HEAD)'}` : 'No'}`,
    `Platform: ${platform}`,
    `Today's date: ${now.toISOString().slice(0, 10)}`,
    '</env>',
  ].join('\n');
}

const KIND: Readonly<Record<MemoryType, string>> = {
  Managed: "organisation policy instructions, set by the user's administrators",
  User: "user's private global instructions for all projects",
  Project: 'project instructions, checked into the codebase',
  Local: "user's private project instructions, not checked in",
};

/** The memory section of the system prompt; empty when no memory file was loaded. */
export function memoryBlock(memory: MemorySnapshot): string {
  const files = memory.files.filter((f) => f.content.trim() !== '');
  const notes = memory.notes ?? [];
  if (files.length === 0 && notes.length === 0) return '';
  return [
    '# Memory',
    'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.',
    ...files.map(describeMemoryFile),
    // What was left out is named, never shown: the model should not go looking for it either.
    ...(notes.length > 0 ? [`Not loaded:\n${notes.map((n) => `- ${n}`).join('\n')}`] : []),
  ].join('\n\n');
}

/** One memory file for the model: its path, kind and text (the system prompt, and a lazily loaded file's reminder). */
export function describeMemoryFile(file: MemoryFile): string {
  const from = file.parentPath ? `, imported by ${file.parentPath}` : '';
  return `Contents of ${file.path} (${KIND[file.memoryType]}${from}):\n\n${file.content.trim()}`;
}

/** The git repository `cwd` is in, and its branch, read from `.git` without running git. */
export function gitInfo(cwd: string): { readonly branch?: string } | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const gitDir = resolveGitDir(dotGit);
    if (gitDir) {
      try {
        const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
        const ref = /^ref: refs\/heads\/(.+)$/.exec(head);
        return ref ? { branch: ref[1] as string } : {};
      } catch {
        return {};
      }
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** `.git` as a folder, or a worktree's `.git` file pointing at one (`gitdir: …`). */
function resolveGitDir(dotGit: string): string | undefined {
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    if (!stat.isFile() || stat.size > 4096) return undefined;
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    return m ? path.resolve(path.dirname(dotGit), (m[1] as string).trim()) : undefined;
  } catch {
    return undefined;
  }
}
