import type { Document } from 'yaml';
import { readAgentFrontmatter } from './agentFrontmatter';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { DiagnosticSink, describeValue } from '../../configFiles/diagnosticSink';
import { readHooksObject, type RawHookEntry } from './hooksObjectReader';
import { yamlLocator } from '../../configFiles/nodeLocator';
import { isPlainObject } from '../../shared/jsonObject';

/** What one `<skills dir>/<name>/SKILL.md` contributes to the hook configuration. */
export interface SkillFileContent {
  /** Frontmatter `name`, when it has one (else the skill is named after its folder). */
  readonly name?: string;
  readonly hooks: RawHookEntry[];
  readonly diagnostics: ConfigDiagnostic[];
}

/**
 * Reads the YAML frontmatter `hooks:` of a SKILL.md. They are skill-scoped: they run only once
 * the skill was loaded in the session (LoadedHook.skill). `Stop` stays `Stop` (only a
 * subagent's turns into SubagentStop); `once: true` is honoured. A file without frontmatter or
 * without `hooks:` contributes nothing; a bad frontmatter is one diagnostic, never a throw.
 */
export function readSkillFileText(text: string, where: { readonly file: string; readonly displayFile: string }): SkillFileContent {
  const frontmatter = readAgentFrontmatter(text);
  if (!frontmatter) return { hooks: [], diagnostics: [] };
  const { yaml: parsed, yamlOffset } = frontmatter;
  const sink = (doc?: Document): DiagnosticSink => new DiagnosticSink({ ...where, text, ...(doc ? { locator: yamlLocator(doc, yamlOffset) } : {}) });
  if (!parsed.ok) {
    const failed = sink();
    failed.reportAt(
      'error',
      'agentFrontmatter',
      yamlOffset + parsed.offset,
      1,
      `the frontmatter ${parsed.message}; this skill's hooks are ignored until it is fixed`,
    );
    return { hooks: [], diagnostics: failed.diagnostics };
  }
  const located = sink(parsed.doc);
  if (!isPlainObject(parsed.value)) {
    if (parsed.value !== null && parsed.value !== undefined)
      located.report(
        'error',
        'agentFrontmatter',
        [],
        `the frontmatter must be a YAML mapping (name:, description:, hooks:), got ${describeValue(parsed.value)}; it is ignored`,
      );
    return { hooks: [], diagnostics: located.diagnostics };
  }
  const hooks = readHooksObject(parsed.value.hooks, ['hooks'], located, { allowOnce: true });
  const name = typeof parsed.value.name === 'string' && parsed.value.name.trim() !== '' ? parsed.value.name.trim() : undefined;
  return { ...(name !== undefined ? { name } : {}), hooks, diagnostics: located.diagnostics };
}
