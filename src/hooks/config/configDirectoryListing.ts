import path from 'node:path';
import { thrownMessage } from '../../shared/describeThrown';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import type { ConfigFileSystem } from '../../configFiles/configFileSystem';
import { MAX_AGENT_FILES } from '../../configFiles/configLimits';
import { hookFormatAdapter } from '../formats/formatRegistry';
import type { AgentFileInput, AgentsDirectoryInput, FormatDirectoryInput, FormatFileInput, SkillFileInput, SkillsDirectoryInput } from './configSources';

/**
 * The `*.md` files of an agents directory, sorted, at most MAX_AGENT_FILES; a directory that
 * cannot be listed is a diagnostic naming it, and no files.
 */
export async function listAgentFiles(fs: ConfigFileSystem, input: AgentsDirectoryInput, diagnostics: ConfigDiagnostic[]): Promise<AgentFileInput[]> {
  let names: string[] = [];
  try {
    names = (await fs.listDirectory(input.dir)).filter((n) => n.toLowerCase().endsWith('.md')).sort();
  } catch (error) {
    diagnostics.push({
      file: input.dir,
      displayFile: input.displayDir,
      jsonPath: '',
      severity: 'error',
      code: 'unreadable',
      message: `cannot list agent files (${thrownMessage(error)})`,
    });
  }
  return firstFiles(names, input, 'agent files', diagnostics).map((name) => ({
    kind: 'agentFile',
    scope: input.scope,
    file: path.join(input.dir, name),
    displayFile: `${input.displayDir}/${name}`,
    ...(input.folder !== undefined ? { folder: input.folder } : {}),
    ...(input.plugin !== undefined ? { plugin: input.plugin } : {}),
  }));
}

/**
 * The `<name>/SKILL.md` files of a skills directory, sorted, at most MAX_AGENT_FILES; a directory
 * that cannot be listed (or is missing) gives none. A folder without SKILL.md is skipped by the read.
 */
export async function listSkillFiles(fs: ConfigFileSystem, input: SkillsDirectoryInput, diagnostics: ConfigDiagnostic[]): Promise<SkillFileInput[]> {
  let names: string[];
  try {
    names = (await fs.listDirectory(input.dir)).sort();
  } catch {
    return [];
  }
  return firstFiles(names, input, 'skills', diagnostics).map((name) => ({
    kind: 'skillFile',
    scope: input.scope,
    file: path.join(input.dir, name, 'SKILL.md'),
    displayFile: `${input.displayDir}/${name}/SKILL.md`,
    skill: name,
    ...(input.folder !== undefined ? { folder: input.folder } : {}),
    ...(input.plugin !== undefined ? { plugin: input.plugin } : {}),
  }));
}

/**
 * The `*.json` files of another agent's hooks directory (Copilot's `.github/hooks`), sorted, at most
 * MAX_AGENT_FILES; a missing directory gives none (the port lists it as empty), one that cannot be listed is a diagnostic.
 */
export async function listFormatFiles(fs: ConfigFileSystem, input: FormatDirectoryInput, diagnostics: ConfigDiagnostic[]): Promise<FormatFileInput[]> {
  let names: string[];
  try {
    const isHookFile = hookFormatAdapter(input.format)?.directoryEntry ?? ((n: string) => n.toLowerCase().endsWith('.json'));
    names = (await fs.listDirectory(input.dir)).filter(isHookFile).sort();
  } catch (error) {
    diagnostics.push({
      file: input.dir,
      displayFile: input.displayDir,
      jsonPath: '',
      severity: 'error',
      code: 'unreadable',
      message: `cannot list hook files (${thrownMessage(error)})`,
    });
    return [];
  }
  return firstFiles(names, input, 'hook files', diagnostics).map((name) => ({
    kind: 'formatFile',
    format: input.format,
    scope: input.scope,
    file: path.join(input.dir, name),
    displayFile: `${input.displayDir}/${name}`,
    ...(input.folder !== undefined ? { folder: input.folder } : {}),
  }));
}

/** The first MAX_AGENT_FILES of `names` (already sorted); more is a diagnostic on the directory. */
function firstFiles(names: string[], input: { readonly dir: string; readonly displayDir: string }, what: string, diagnostics: ConfigDiagnostic[]): string[] {
  if (names.length <= MAX_AGENT_FILES) return names;
  diagnostics.push({
    file: input.dir,
    displayFile: input.displayDir,
    jsonPath: '',
    severity: 'error',
    code: 'tooLarge',
    message: `${names.length} ${what}; only the first ${MAX_AGENT_FILES} (by name) are read`,
  });
  return names.slice(0, MAX_AGENT_FILES);
}
