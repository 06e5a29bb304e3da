import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree } from 'jsonc-parser';
import { detectFormatting } from '../../hooks/config/addHookEdit';

/** Why "Always Allow" cannot write its rule. */
export class AllowRuleEditError extends Error {
  constructor(
    readonly reason: 'notJsonObject' | 'notAnArray',
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  static is(error: unknown, reason?: AllowRuleEditError['reason']): error is AllowRuleEditError {
    return error instanceof AllowRuleEditError && (reason === undefined || error.reason === reason);
  }
}

/**
 * Adds `rule` (e.g. `Bash(npm test:*)`) to `permissions.allow` of a `.claude/settings*.json`
 * text by minimal jsonc-parser edits, so comments and formatting survive. Returns the text
 * unchanged when the rule is already there, a new file's text when `text` is empty. Pure.
 * Throws AllowRuleEditError when the file is not an object or `permissions.allow` is not an array.
 */
export function addAllowRule(text: string, rule: string): string {
  const blank = text.trim() === '';
  const root = blank ? undefined : parseTree(text, [], { allowTrailingComma: true });
  if (!blank && root?.type !== 'object') throw new AllowRuleEditError('notJsonObject', 'the file is not a JSON object; fix it before adding rules');
  const allowNode = root ? findNodeAtLocation(root, ['permissions', 'allow']) : undefined;
  if (allowNode && allowNode.type !== 'array') throw new AllowRuleEditError('notAnArray', 'permissions.allow is not an array; fix it before adding rules');
  const existing = allowNode ? (getNodeValue(allowNode) as unknown[]) : [];
  if (existing.includes(rule)) return text;
  const formattingOptions = detectFormatting(text);
  const base = blank ? '{}' : text;
  const edits = allowNode
    ? modify(base, ['permissions', 'allow', existing.length], rule, { formattingOptions, isArrayInsertion: true })
    : modify(base, ['permissions', 'allow'], [rule], { formattingOptions });
  const out = applyEdits(base, edits);
  const eol = formattingOptions.eol ?? '\n';
  return blank && !out.endsWith(eol) ? out + eol : out;
}
