import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { HookEvent } from '../hookEvent';
import type { ConfigDiagnostic } from './configDiagnostic';
import { DiagnosticSink, describeValue, isPlainObject } from './diagnosticSink';
import { readHooksObject, type RawHookEntry } from './hooksObjectReader';
import { yamlLocator } from './nodeLocator';

/** What one `.claude/agents/*.md` file contributes. */
export interface AgentFileContent {
  /** The subagent type (frontmatter `name`, else the file name); undefined when the file has no frontmatter. */
  readonly agentType?: string;
  readonly hooks: RawHookEntry[];
  readonly diagnostics: ConfigDiagnostic[];
}

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^---[ \t]*(?:\r?\n|$)/m;

/**
 * Reads the YAML frontmatter `hooks:` of an agent file. The hooks are scoped to that
 * subagent, and `Stop` there means its `SubagentStop` (research §2.2). A file without
 * frontmatter or without `hooks:` contributes nothing, silently.
 */
export function readAgentFileText(text: string, where: { readonly file: string; readonly displayFile: string }): AgentFileContent {
  const match = FRONTMATTER.exec(text);
  if (!match || match.index !== 0) return { hooks: [], diagnostics: [] };
  const body = match[1] ?? '';
  const bodyOffset = match[0].indexOf(body) + match.index;
  const lineCounter = new LineCounter();
  const doc = parseDocument(body, { lineCounter, prettyErrors: false });
  const sink = new DiagnosticSink({ ...where, text, locator: yamlLocator(doc, bodyOffset) });
  const fallbackName = path.basename(where.file).replace(/\.md$/i, '');
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    sink.reportAt('error', 'agentFrontmatter', bodyOffset + (first?.pos[0] ?? 0), 1, `the frontmatter is not valid YAML (${first?.message.split('\n')[0] ?? 'parse error'}); this agent's hooks are ignored until it is fixed`);
    return { agentType: fallbackName, hooks: [], diagnostics: sink.diagnostics };
  }
  const value: unknown = doc.toJS();
  if (!isPlainObject(value)) {
    if (value !== null && value !== undefined) sink.report('error', 'agentFrontmatter', [], `the frontmatter must be a YAML mapping (name:, description:, hooks:), got ${describeValue(value)}; it is ignored`);
    return { agentType: fallbackName, hooks: [], diagnostics: sink.diagnostics };
  }
  let agentType = fallbackName;
  if (typeof value.name === 'string' && value.name.trim() !== '') agentType = value.name.trim();
  else if (value.hooks !== undefined) sink.report('warning', 'agentFrontmatter', ['name'], `the agent has no "name"; its hooks are scoped to the file name "${fallbackName}"`);
  const hooks = readHooksObject(value.hooks, ['hooks'], sink, {
    mapEvent: (event) => (event === HookEvent.Stop ? HookEvent.SubagentStop : event),
  });
  return { agentType, hooks, diagnostics: sink.diagnostics };
}
