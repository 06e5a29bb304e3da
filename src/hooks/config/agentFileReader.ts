import path from 'node:path';
import type { Document } from 'yaml';
import { HookEvent } from '../hookEvent';
import { readAgentFrontmatter } from './agentFrontmatter';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { DiagnosticSink, describeValue } from '../../configFiles/diagnosticSink';
import { readHooksObject, type RawHookEntry } from './hooksObjectReader';
import { yamlLocator } from '../../configFiles/nodeLocator';
import { isPlainObject } from '../../shared/jsonObject';

/** What one `.claude/agents/*.md` file contributes. */
export interface AgentFileContent {
  /** The subagent type (frontmatter `name`, else the file name); undefined when the file has no frontmatter. */
  readonly agentType?: string;
  readonly hooks: RawHookEntry[];
  readonly diagnostics: ConfigDiagnostic[];
}

/**
 * Reads the YAML frontmatter `hooks:` of an agent file. The hooks are scoped to that
 * subagent, and `Stop` there means its `SubagentStop`. A file without
 * frontmatter or without `hooks:` contributes nothing, silently. The YAML is parsed with
 * limits (agentFrontmatter.ts): too deep or an alias bomb is one diagnostic, never a throw.
 */
export function readAgentFileText(text: string, where: { readonly file: string; readonly displayFile: string }): AgentFileContent {
  const frontmatter = readAgentFrontmatter(text);
  if (!frontmatter) return { hooks: [], diagnostics: [] };
  const { yaml: parsed, yamlOffset: bodyOffset } = frontmatter;
  const sink = (doc?: Document): DiagnosticSink => new DiagnosticSink({ ...where, text, ...(doc ? { locator: yamlLocator(doc, bodyOffset) } : {}) });
  const fallbackName = path.basename(where.file).replace(/\.md$/i, '');
  if (!parsed.ok) {
    const failed = sink();
    failed.reportAt(
      'error',
      'agentFrontmatter',
      bodyOffset + parsed.offset,
      1,
      `the frontmatter ${parsed.message}; this agent's hooks are ignored until it is fixed`,
    );
    return { agentType: fallbackName, hooks: [], diagnostics: failed.diagnostics };
  }
  const { value } = parsed;
  const sinkOk = sink(parsed.doc);
  if (!isPlainObject(value)) {
    if (value !== null && value !== undefined)
      sinkOk.report(
        'error',
        'agentFrontmatter',
        [],
        `the frontmatter must be a YAML mapping (name:, description:, hooks:), got ${describeValue(value)}; it is ignored`,
      );
    return { agentType: fallbackName, hooks: [], diagnostics: sinkOk.diagnostics };
  }
  let agentType = fallbackName;
  if (typeof value.name === 'string' && value.name.trim() !== '') agentType = value.name.trim();
  else if (value.hooks !== undefined)
    sinkOk.report('warning', 'agentFrontmatter', ['name'], `the agent has no "name"; its hooks are scoped to the file name "${fallbackName}"`);
  const hooks = readHooksObject(value.hooks, ['hooks'], sinkOk, {
    mapEvent: (event) => (event === HookEvent.Stop ? HookEvent.SubagentStop : event),
    allowOnce: true,
  });
  return { agentType, hooks, diagnostics: sinkOk.diagnostics };
}
