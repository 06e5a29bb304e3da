import path from 'node:path';
import type { ProtectedChange } from './protectedSnapshot';

/** Extensions of files hooks keep as data (logs, state, records): not code, not configuration. */
const DATA_EXTENSIONS = new Set(['.log', '.jsonl', '.ndjson', '.txt', '.csv', '.tsv', '.out', '.err', '.tmp', '.lock', '.pid', '.json', '.db', '.sqlite']);
/** Names that are configuration wherever they sit in the protected set. */
const POLICY_NAMES = new Set(['settings.json', 'settings.local.json', '.mcp.json', '.claude.json', 'SKILL.md', 'CLAUDE.md', 'CLAUDE.local.md']);
/** Folders under `.claude` whose files are configuration (agents, rules, hooks' own scripts). */
const POLICY_DIRS = ['agents', 'rules', 'hooks'];
const EXECUTABLE_BITS = 0o111;

/**
 * Whether a changed protected file is policy — configuration or code — rather than a hook's data
 * (a log line, a state file). The self-protection backstop stays strict for policy files even
 * when a hook ran during the call; a data file changed while a hook ran is taken as the hook's
 * own write. A file is policy when it was loaded as configuration (`configFiles`), has a
 * configuration name, sits in `.claude/agents|rules|hooks` without a data extension, is
 * executable, or does not have a data extension (scripts without one, `Makefile`, `*.sh`…).
 */
export function isPolicyFile(change: ProtectedChange, configFiles: ReadonlySet<string>): boolean {
  const file = change.path;
  if (configFiles.has(file)) return true;
  const base = path.basename(file);
  if (POLICY_NAMES.has(base) || base.endsWith('.code-workspace')) return true;
  if (((change.before.exists ? change.before.mode : 0) | (change.after.exists ? change.after.mode : 0)) & EXECUTABLE_BITS) return true;
  const ext = path.extname(base).toLowerCase();
  if (!DATA_EXTENSIONS.has(ext)) return true;
  const parts = file.split(path.sep);
  const claude = parts.lastIndexOf('.claude');
  return claude >= 0 && POLICY_DIRS.includes(parts[claude + 1] ?? '') && ext === '.json';
}
