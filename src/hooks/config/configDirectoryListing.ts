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
  const adapter = hookFormatAdapter(input.format);
  let names: string[];
  try {
    const isHookFile = adapter?.directoryEntry ?? ((n: string) => n.toLowerCase().endsWith('.json'));
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
  const files: FormatFileInput[] = firstFiles(names, input, 'hook files', diagnostics).map((name) => ({
    kind: 'formatFile',
    format: input.format,
    scope: input.scope,
    file: path.join(input.dir, name),
    displayFile: `${input.displayDir}/${name}`,
    ...(input.folder !== undefined ? { folder: input.folder } : {}),
  }));
  return files.length > 0 && input.scope === 'project' ? withinProject(fs, input, files, adapter?.runsFile === true, diagnostics) : files;
}

/**
 * A project's hook folder, and each file of it that is itself the program run (Cline), must really
 * lie inside the project: a cloned repository could link `.clinerules/hooks` or one script to any
 * program on the machine. What leads out is an error naming it, and its hooks do not load.
 */
async function withinProject(
  fs: ConfigFileSystem,
  input: FormatDirectoryInput,
  files: FormatFileInput[],
  eachFile: boolean,
  diagnostics: ConfigDiagnostic[],
): Promise<FormatFileInput[]> {
  const realPath = fs.realPath?.bind(fs);
  if (realPath === undefined || input.folder === undefined) return files;
  // A path that cannot be resolved (a loop, no permission) is left to the read, which reports it.
  const real = (p: string): Promise<string | undefined> => realPath(p).catch(() => undefined);
  const root = (await real(input.folder)) ?? input.folder;
  const outside = async (p: string): Promise<string | undefined> => {
    const target = await real(p);
    const rel = target !== undefined ? path.relative(root, target) : '';
    return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? target : undefined;
  };
  const refuse = (file: string, displayFile: string, target: string): void => {
    diagnostics.push({
      file,
      displayFile,
      jsonPath: '',
      severity: 'error',
      code: 'outsideProject',
      message: `is a link to ${target}, outside the project; its hooks do not run (a repository must not run programs from elsewhere on the machine)`,
    });
  };
  const dirTarget = await outside(input.dir);
  if (dirTarget !== undefined) {
    refuse(input.dir, input.displayDir, dirTarget);
    return [];
  }
  if (!eachFile) return files;
  const kept: FormatFileInput[] = [];
  for (const file of files) {
    const target = await outside(file.file);
    if (target === undefined) kept.push(file);
    else refuse(file.file, file.displayFile, target);
  }
  return kept;
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
