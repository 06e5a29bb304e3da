import path from 'node:path';
import { BUILTIN_COMMANDS } from '../../runtime/builtinCommands';
import { loadSlashCommands } from '../../agent/commands/slashCommands';
import type { MemorySnapshot } from '../../agent/memory/memoryFiles';
import type { MentionItem } from '../../shared/webviewProtocol';

/**
 * Every slash command for the chat's `/` completion: the built-ins first, then the custom
 * commands (`.claude/commands`, `~/.claude/commands`) read now, so a new file shows at once.
 * A custom command named like a built-in is left out: the built-in runs.
 */
export async function slashCommandItems(projectDir: string, homeDir: string): Promise<MentionItem[]> {
  const builtins: MentionItem[] = BUILTIN_COMMANDS.map((c) => ({
    label: `/${c.name}`,
    detail: c.argumentHint ? `${c.description} ${c.argumentHint}` : c.description,
    insert: `/${c.name} `,
  }));
  const builtinNames = new Set(BUILTIN_COMMANDS.map((c) => c.name));
  const { commands } = await loadSlashCommands({ projectDir, homeDir });
  const custom = commands
    .filter((c) => !builtinNames.has(c.name))
    .map((c) => ({
      label: `/${c.name}`,
      // The description already says where the command comes from, e.g. "(project)".
      detail: `${c.description}${c.argumentHint ? ` ${c.argumentHint}` : ''}`,
      insert: `/${c.name} `,
    }));
  return [...builtins, ...custom];
}

/** The memory files of a session as chat links: the path relative to the project when inside it, else `~/…` or the full path. */
export function memoryFileItems(memory: MemorySnapshot | undefined, projectDir: string, homeDir: string): { path: string; label: string }[] {
  return (memory?.files ?? []).map((f) => {
    const rel = path.relative(projectDir, f.path);
    const inProject = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    const home = path.relative(homeDir, f.path);
    const label = inProject ? rel : !home.startsWith('..') && !path.isAbsolute(home) ? `~/${home}` : f.path;
    return { path: f.path, label };
  });
}
