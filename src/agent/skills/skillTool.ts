import { z } from 'zod';
import type { RunContext } from '../runContext';
import type { AnyAgentTool } from '../tools/tool';
import { defineTool, toolError } from '../tools/tool';
import type { SkillDefinition } from './skillDefinitions';

const skillInputSchema = z.object({
  skill: z.string().trim().min(1, 'must not be empty').describe('The skill name, e.g. "pdf" or "deploy"'),
  args: z.string().optional().describe('Optional arguments for the skill'),
});

/** Most characters of the skill list in the tool description (one skill per line), so many skills cannot flood the prompt. */
const MAX_LISTING_CHARS = 15_000;

/**
 * Claude Code's `Skill` tool: its description lists every skill's name and description; a call
 * `{"skill": name}` loads that skill for the rest of the session: its SKILL.md `hooks:` start
 * running (HookDispatcher.activateSkill), its `allowed-tools` become session allow rules, and
 * the result is the skill's instructions with its folder. Undefined when there is no skill.
 */
export function createSkillTool(ctx: RunContext, skills: readonly SkillDefinition[]): AnyAgentTool | undefined {
  if (skills.length === 0) return undefined;
  let listing = '';
  for (const s of skills) {
    const line = `- ${s.name}: ${s.description || '(no description)'}\n`;
    if (listing.length + line.length > MAX_LISTING_CHARS) break;
    listing += line;
  }
  return defineTool({
    name: 'Skill',
    description: `Execute a skill within the main conversation. When a task matches a skill's description, call this tool with its name first; its instructions come back as the result.\nAvailable skills:\n${listing.trimEnd()}`,
    inputSchema: skillInputSchema,
    // Loading instructions changes no file; what the skill then does goes through hooks and permissions.
    readOnly: true,
    needsApproval: false,
    summarize: (input) => input.skill,
    execute: (input) => {
      const name = input.skill.replace(/^\//, '');
      const skill = skills.find((s) => s.name === name);
      if (!skill) return Promise.resolve(toolError(`Unknown skill "${name}". Available: ${skills.map((s) => s.name).join(', ')}.`));
      ctx.hooks.activateSkill?.(ctx.sessionId, skill.name);
      for (const rule of skill.allowedTools) ctx.sessionRules?.grant(rule, { kind: 'code', label: `skill ${skill.name} › allowed-tools` });
      const args = input.args?.trim() ? `\n\nARGUMENTS: ${input.args.trim()}` : '';
      return Promise.resolve({
        content: `Launching skill: ${skill.name}\n\nBase directory for this skill: ${skill.dir}\n\n${skill.body}${args}`,
        isError: false,
        data: { success: true, commandName: skill.name },
      });
    },
  });
}
