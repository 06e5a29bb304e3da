import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { frontmatterFields, readAgentFrontmatter } from '../../hooks/config/agentFrontmatter';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { MAX_AGENT_FILES } from '../../configFiles/configLimits';
import { thrownMessage } from '../../shared/describeThrown';
import { lazySchema } from '../../shared/lazySchema';

/** A subagent type: built-in (`general-purpose`, `Explore`) or a `.claude/agents/*.md` file. */
export interface AgentDefinition {
  /** The `subagent_type` the model passes, and the hooks' `agent_type`. */
  readonly name: string;
  readonly description: string;
  /** Tool names it may use; undefined = every tool of its parent. */
  readonly tools?: readonly string[];
  /** Model name override (`inherit` or absent = the parent's). */
  readonly model?: string;
  readonly systemPrompt: string;
  /** Display path of the defining file, or `built-in`. */
  readonly source: string;
}

const READ_ONLY_TOOLS = ['Read', 'Glob', 'Grep'] as const;

/** The built-in types (Claude Code's names). `Explore` is read-only. */
export const BUILTIN_AGENTS: readonly AgentDefinition[] = Object.freeze([
  {
    name: 'general-purpose',
    description: 'General-purpose agent for multi-step tasks: researching, searching code, and making changes. Has the same tools as its parent.',
    systemPrompt:
      'You are a subagent of Hookwise, given one task by the main agent. Do it with the tools you have, then answer with a concise report of what you found or changed: your final message is all the main agent sees.',
    source: 'built-in',
  },
  {
    name: 'Explore',
    description: 'Fast read-only agent for exploring a codebase: find files, search code, read and summarize. Cannot change anything.',
    tools: READ_ONLY_TOOLS,
    systemPrompt:
      'You are a read-only exploration subagent of Hookwise. Use Read, Glob and Grep to answer the question you were given, then reply with a concise, specific answer (paths and line numbers help). You cannot modify files or run commands.',
    source: 'built-in',
  },
]);

// Built on the first file read: most runs have no such files.
const frontmatterSchema = lazySchema(() =>
  z.looseObject({
    name: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    tools: z.union([z.string(), z.array(z.string())]).optional(),
    model: z.string().optional(),
  }),
);

/** A problem with one agent file (the agent is skipped; everything else loads). */
export interface AgentDefinitionProblem {
  readonly file: string;
  readonly message: string;
}

/**
 * Parses one `.claude/agents/*.md` file: YAML frontmatter (name, description, tools as a
 * comma list or array, model) and the body as the system prompt. The name defaults to the
 * file name, as in Claude Code. Never throws.
 */
export function parseAgentDefinition(text: string, displayFile: string): AgentDefinition | AgentDefinitionProblem {
  // The same frontmatter rule (BOM, blanks) and bounded parse as the agent's hooks (agentFileReader.ts).
  const frontmatter = readAgentFrontmatter(text);
  if (!frontmatter) return { file: displayFile, message: 'no YAML frontmatter (--- name: … ---) at the top of the file' };
  const fields = frontmatterFields(frontmatter, frontmatterSchema);
  if (!fields.ok) return { file: displayFile, message: fields.message };
  const fm = fields.value;
  const tools =
    typeof fm.tools === 'string'
      ? fm.tools
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : fm.tools;
  const name = fm.name ?? path.basename(displayFile, '.md');
  return {
    name,
    description: fm.description ?? `Custom agent from ${displayFile}`,
    ...(tools && tools.length > 0 ? { tools } : {}),
    ...(fm.model && fm.model !== 'inherit' ? { model: fm.model } : {}),
    systemPrompt: frontmatter.body.trim() || `You are the ${name} subagent.`,
    source: displayFile,
  };
}

/**
 * Loads agent definitions: the built-ins, then user (`~/.claude/agents`) and project
 * (`.claude/agents`) files in that order; a later definition of the same name wins (project
 * over user over built-in, as in Claude Code). Missing folders are fine.
 */
export async function loadAgentDefinitions(
  dirs: readonly { readonly dir: string; readonly displayDir: string }[],
): Promise<{ agents: AgentDefinition[]; problems: AgentDefinitionProblem[] }> {
  const byName = new Map<string, AgentDefinition>(BUILTIN_AGENTS.map((a) => [a.name, a]));
  const problems: AgentDefinitionProblem[] = [];
  for (const { dir, displayDir } of dirs) {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
    } catch {
      continue;
    }
    if (names.length > MAX_AGENT_FILES) {
      problems.push({ file: displayDir, message: `${names.length} agent files; only the first ${MAX_AGENT_FILES} (by name) are read` });
      names = names.slice(0, MAX_AGENT_FILES);
    }
    for (const name of names) {
      const displayFile = `${displayDir}/${name}`;
      try {
        // Bounded and FIFO-safe (configLimits.ts); a file vanished since readdir is skipped.
        const text = await readBoundedTextFile(path.join(dir, name));
        if (text === undefined) continue;
        const parsed = parseAgentDefinition(text, displayFile);
        if ('message' in parsed) problems.push(parsed);
        else byName.set(parsed.name, parsed);
      } catch (error) {
        problems.push({ file: displayFile, message: `could not read: ${thrownMessage(error)}` });
      }
    }
  }
  return { agents: [...byName.values()], problems };
}
