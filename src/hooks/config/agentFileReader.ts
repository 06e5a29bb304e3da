import path from 'node:path';
import { HookEvent } from '../hookEvent';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { frontmatterName, readFrontmatterHooks, type FrontmatterHooks } from './frontmatterHooksReader';
import type { RawHookEntry } from './hooksObjectReader';

/** What one `.claude/agents/*.md` file contributes. */
export interface AgentFileContent {
  /** The subagent type (frontmatter `name`, else the file name); undefined when the file has no frontmatter. */
  readonly agentType?: string;
  readonly hooks: RawHookEntry[];
  readonly diagnostics: ConfigDiagnostic[];
}

/**
 * Reads the YAML frontmatter `hooks:` of an agent file (frontmatterHooksReader.ts). The hooks are
 * scoped to that subagent, and `Stop` there means its `SubagentStop`.
 */
export function readAgentFileText(text: string, where: { readonly file: string; readonly displayFile: string }): AgentFileContent {
  const read = readAgentFileHooks(text, where);
  if (!read.frontmatter) return { hooks: [], diagnostics: [] };
  return { agentType: frontmatterName(read.fields) ?? agentFileName(where.file), hooks: read.hooks, diagnostics: read.diagnostics };
}

/** The frontmatter read of an agent file, for readers that also need the parsed YAML (hookLocations.ts). */
export function readAgentFileHooks(text: string, where: { readonly file: string; readonly displayFile: string }): FrontmatterHooks {
  return readFrontmatterHooks(text, where, {
    what: 'agent',
    mapEvent: (event) => (event === HookEvent.Stop ? HookEvent.SubagentStop : event),
    beforeHooks: (fields, sink) => {
      if (frontmatterName(fields) === undefined && fields.hooks !== undefined) {
        const fallback = agentFileName(where.file);
        sink.report('warning', 'agentFrontmatter', ['name'], `the agent has no "name"; its hooks are scoped to the file name "${fallback}"`);
      }
    },
  });
}

function agentFileName(file: string): string {
  return path.basename(file).replace(/\.md$/i, '');
}
