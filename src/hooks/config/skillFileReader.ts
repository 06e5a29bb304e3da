import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { frontmatterName, readFrontmatterHooks, type FrontmatterHooks } from './frontmatterHooksReader';
import type { RawHookEntry } from './hooksObjectReader';

/** What one `<skills dir>/<name>/SKILL.md` contributes to the hook configuration. */
export interface SkillFileContent {
  /** Frontmatter `name`, when it has one (else the skill is named after its folder). */
  readonly name?: string;
  readonly hooks: RawHookEntry[];
  readonly diagnostics: ConfigDiagnostic[];
}

/**
 * Reads the YAML frontmatter `hooks:` of a SKILL.md (frontmatterHooksReader.ts). They are
 * skill-scoped: they run only once the skill was loaded in the session (LoadedHook.skill). `Stop`
 * stays `Stop` (only a subagent's turns into SubagentStop).
 */
export function readSkillFileText(text: string, where: { readonly file: string; readonly displayFile: string }): SkillFileContent {
  const read = readSkillFileHooks(text, where);
  const name = frontmatterName(read.fields);
  return { ...(name !== undefined ? { name } : {}), hooks: read.hooks, diagnostics: read.diagnostics };
}

/** The frontmatter read of a SKILL.md, for readers that also need the parsed YAML (hookLocations.ts). */
export function readSkillFileHooks(text: string, where: { readonly file: string; readonly displayFile: string }): FrontmatterHooks {
  return readFrontmatterHooks(text, where, { what: 'skill' });
}
