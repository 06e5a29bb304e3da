import type { Document } from 'yaml';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { DiagnosticSink, describeValue } from '../../configFiles/diagnosticSink';
import { yamlLocator } from '../../configFiles/nodeLocator';
import { isPlainObject } from '../../shared/jsonObject';
import type { HookEvent } from '../hookEvent';
import { readAgentFrontmatter, type AgentFrontmatter } from './agentFrontmatter';
import { readHooksObject, type RawHookEntry } from './hooksObjectReader';

/** How one kind of markdown file (an agent, a skill) reads its frontmatter hooks. */
export interface FrontmatterHooksOptions {
  /** Names the file in messages: "this agent's hooks are ignored…". */
  readonly what: 'agent' | 'skill';
  /** An agent's `Stop` is its `SubagentStop`. */
  readonly mapEvent?: (event: HookEvent) => HookEvent;
  /** Checks other fields of the mapping before the hooks are read (its diagnostics come first). */
  readonly beforeHooks?: (fields: Record<string, unknown>, sink: DiagnosticSink) => void;
}

/** What the frontmatter of one agent file or SKILL.md holds for the hook configuration. */
export interface FrontmatterHooks {
  /** Undefined when the file does not start with a frontmatter. */
  readonly frontmatter?: AgentFrontmatter;
  /** The frontmatter mapping, when it parsed as one. */
  readonly fields?: Record<string, unknown>;
  readonly hooks: RawHookEntry[];
  readonly diagnostics: ConfigDiagnostic[];
}

/**
 * The one reader of the `hooks:` in the YAML frontmatter of agent files and SKILL.md (`once: true`
 * is honoured in both). A file without frontmatter or without `hooks:` contributes nothing,
 * silently; the YAML is parsed with limits (agentFrontmatter.ts), so a bad frontmatter is one
 * diagnostic, never a throw.
 */
export function readFrontmatterHooks(
  text: string,
  where: { readonly file: string; readonly displayFile: string },
  options: FrontmatterHooksOptions,
): FrontmatterHooks {
  const frontmatter = readAgentFrontmatter(text);
  if (!frontmatter) return { hooks: [], diagnostics: [] };
  const { yaml: parsed, yamlOffset } = frontmatter;
  const sink = (doc?: Document): DiagnosticSink => new DiagnosticSink({ ...where, text, ...(doc ? { locator: yamlLocator(doc, yamlOffset) } : {}) });
  if (!parsed.ok) {
    const failed = sink();
    const message = `the frontmatter ${parsed.message}; this ${options.what}'s hooks are ignored until it is fixed`;
    failed.reportAt('error', 'agentFrontmatter', yamlOffset + parsed.offset, 1, message);
    return { frontmatter, hooks: [], diagnostics: failed.diagnostics };
  }
  const located = sink(parsed.doc);
  const { value } = parsed;
  if (!isPlainObject(value)) {
    if (value !== null && value !== undefined)
      located.report(
        'error',
        'agentFrontmatter',
        [],
        `the frontmatter must be a YAML mapping (name:, description:, hooks:), got ${describeValue(value)}; it is ignored`,
      );
    return { frontmatter, hooks: [], diagnostics: located.diagnostics };
  }
  options.beforeHooks?.(value, located);
  const hooks = readHooksObject(value.hooks, ['hooks'], located, { ...(options.mapEvent ? { mapEvent: options.mapEvent } : {}), allowOnce: true });
  return { frontmatter, fields: value, hooks, diagnostics: located.diagnostics };
}

/** The frontmatter's `name` when it is a non-blank string, trimmed. */
export function frontmatterName(fields: Record<string, unknown> | undefined): string | undefined {
  const name = fields?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}
