import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { frontmatterFields, readAgentFrontmatter } from '../../hooks/config/agentFrontmatter';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { MAX_AGENT_FILES } from '../../configFiles/configLimits';
import { thrownMessage } from '../../shared/describeThrown';
import { lazySchema } from '../../shared/lazySchema';

/** A skill: a `<skills dir>/<name>/SKILL.md` the model can load with the Skill tool. */
export interface SkillDefinition {
  /** Frontmatter `name`, else the folder's name: what the model passes as `skill`. */
  readonly name: string;
  readonly description: string;
  /** `allowed-tools`: permission rules that allow without asking once the skill is loaded. */
  readonly allowedTools: readonly string[];
  /** The markdown after the frontmatter: the instructions the Skill call returns. */
  readonly body: string;
  /** Absolute folder of the skill (its scripts and files are relative to it). */
  readonly dir: string;
  /** Display path of SKILL.md, e.g. `.claude/skills/deploy/SKILL.md`. */
  readonly source: string;
  /** `project` skills come from the workspace: their `allowed-tools` need a trusted workspace. */
  readonly scope: 'user' | 'project';
}

/** A SKILL.md that could not be used (the skill is skipped; the others load). */
export interface SkillProblem {
  readonly file: string;
  readonly message: string;
}

// Built on the first file read: most runs have no such files.
const frontmatterSchema = lazySchema(() =>
  z.looseObject({
    name: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
  }),
);

/** Parses one SKILL.md (frontmatter name, description, allowed-tools as a comma list or array). Never throws. */
export function parseSkill(
  text: string,
  where: { readonly dir: string; readonly displayFile: string; readonly scope: 'user' | 'project' },
): SkillDefinition | SkillProblem {
  const frontmatter = readAgentFrontmatter(text);
  const folderName = path.basename(where.dir);
  const origin = { dir: where.dir, source: where.displayFile, scope: where.scope };
  if (!frontmatter) return { name: folderName, description: '', allowedTools: [], body: text.trim(), ...origin };
  const fields = frontmatterFields(frontmatter, frontmatterSchema);
  if (!fields.ok) return { file: where.displayFile, message: fields.message };
  const fm = fields.value;
  const tools = fm['allowed-tools'];
  const allowedTools = (typeof tools === 'string' ? tools.split(',') : (tools ?? [])).map((t) => t.trim()).filter(Boolean);
  return { name: fm.name ?? folderName, description: fm.description ?? '', allowedTools, body: frontmatter.body.trim(), ...origin };
}

/**
 * Loads skills from plugin, user (`~/.claude/skills`) then project (`.claude/skills`) folders; a
 * later skill of the same name wins. A plugin's skills are named `<plugin>:<name>` (`namespace`),
 * as in Claude Code, so they never clash with the user's or the project's. Missing folders are
 * fine; each SKILL.md is read bounded.
 */
export async function loadSkills(
  dirs: readonly { readonly dir: string; readonly displayDir: string; readonly scope: 'user' | 'project'; readonly namespace?: string }[],
): Promise<{ skills: SkillDefinition[]; problems: SkillProblem[] }> {
  const byName = new Map<string, SkillDefinition>();
  const problems: SkillProblem[] = [];
  for (const { dir, displayDir, scope, namespace } of dirs) {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch {
      continue;
    }
    if (names.length > MAX_AGENT_FILES) {
      problems.push({ file: displayDir, message: `${names.length} skills; only the first ${MAX_AGENT_FILES} (by name) are read` });
      names = names.slice(0, MAX_AGENT_FILES);
    }
    for (const name of names) {
      const displayFile = `${displayDir}/${name}/SKILL.md`;
      const skillDir = path.join(dir, name);
      try {
        const text = await readBoundedTextFile(path.join(skillDir, 'SKILL.md'));
        if (text === undefined) continue;
        const parsed = parseSkill(text, { dir: skillDir, displayFile, scope });
        if ('message' in parsed) problems.push(parsed);
        else {
          const skill = namespace ? { ...parsed, name: `${namespace}:${parsed.name}` } : parsed;
          byName.set(skill.name, skill);
        }
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (code === 'ENOTDIR' || code === 'ENOENT') continue;
        problems.push({ file: displayFile, message: `could not read: ${thrownMessage(error)}` });
      }
    }
  }
  return { skills: [...byName.values()], problems };
}
