import type { z } from 'zod';
import { parseBoundedYaml, type BoundedYamlResult } from '../../configFiles/boundedYaml';

/** The frontmatter of a `.claude/agents/*.md` file, split from its markdown body. */
export interface AgentFrontmatter {
  /** The YAML between the `---` lines, parsed with limits (boundedYaml.ts). */
  readonly yaml: BoundedYamlResult;
  /** Where the YAML starts in the file's text: add it to `yaml.offset` or a node's range. */
  readonly yamlOffset: number;
  /** The markdown after the closing `---` line (a subagent's system prompt). */
  readonly body: string;
}

/**
 * One rule for both readers of agent files (their hooks and their definitions): an optional
 * UTF-8 BOM, then `---` on the first line and `---` on a line of its own, each allowing
 * trailing blanks; LF or CRLF.
 */
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^---[ \t]*(?:\r?\n|$)/m;

/**
 * Splits and parses the frontmatter of an agent file; undefined when the file does not start
 * with one. The YAML is workspace input: it is parsed with depth and alias limits, so a bad
 * frontmatter is a result with a message, never a throw.
 */
export function readAgentFrontmatter(text: string): AgentFrontmatter | undefined {
  const match = FRONTMATTER.exec(text);
  if (!match || match.index !== 0) return undefined;
  const yamlText = match[1] ?? '';
  return { yaml: parseBoundedYaml(yamlText), yamlOffset: match[0].indexOf('\n') + 1, body: text.slice(match[0].length) };
}

/**
 * The frontmatter's fields checked against `schema` (an agent's or a skill's definition): the
 * message says what is wrong, `frontmatter <why>` for bad YAML, `frontmatter: <path>: <issue>; …`
 * for fields that do not fit.
 */
export function frontmatterFields<S extends z.ZodType>(
  frontmatter: AgentFrontmatter,
  schema: S,
): { readonly ok: true; readonly value: z.infer<S> } | { readonly ok: false; readonly message: string } {
  const { yaml } = frontmatter;
  if (!yaml.ok) return { ok: false, message: `frontmatter ${yaml.message}` };
  const parsed = schema.safeParse(yaml.value ?? {});
  if (!parsed.success)
    return { ok: false, message: `frontmatter: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` };
  return { ok: true, value: parsed.data };
}
