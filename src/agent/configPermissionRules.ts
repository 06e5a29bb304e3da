import type { HookSource } from '../hooks/hookSource';
import { describeSource } from '../hooks/hookSource';
import type { PermissionContext, PermissionRuleEntry } from '../hooks/config/permissionRules';
import { evaluatePermissionRules, parsePermissionRule, suggestRule } from '../hooks/config/permissionRules';
import type { PermissionRules } from './permissionMode';

/**
 * The PermissionRules port over Claude Code `permissions` entries (deny > ask > allow),
 * plus `grant` for "Allow for This Session" (grants are allow rules kept in memory).
 */
export class ConfigPermissionRules implements PermissionRules {
  private readonly entries: PermissionRuleEntry[];

  constructor(
    entries: readonly PermissionRuleEntry[],
    private readonly ctx: PermissionContext,
  ) {
    this.entries = [...entries];
  }

  evaluate(toolName: string, input: Readonly<Record<string, unknown>>): { behavior: 'allow' | 'deny' | 'ask'; rule: string; source?: string } | undefined {
    const hit = evaluatePermissionRules(this.entries, toolName, input, this.ctx);
    return hit ? { behavior: hit.behavior, rule: hit.entry.rule.text, source: describeSource(hit.entry.source) } : undefined;
  }

  suggest(toolName: string, input: Readonly<Record<string, unknown>>): string {
    return suggestRule(toolName, input, this.ctx);
  }

  /** Adds an allow rule for the rest of the session; an unparsable rule is ignored. */
  grant(ruleText: string, source: HookSource = { kind: 'code', label: 'allowed for this session' }): void {
    const parsed = parsePermissionRule(ruleText);
    if (parsed.ok) this.entries.push({ behavior: 'allow', rule: parsed.rule, source });
  }

  /** Rules from plain strings (CLI `--allowed-tools`), with their source. */
  static allowList(rules: readonly string[], source: HookSource): PermissionRuleEntry[] {
    return rules.flatMap((text) => {
      const parsed = parsePermissionRule(text);
      return parsed.ok ? [{ behavior: 'allow' as const, rule: parsed.rule, source }] : [];
    });
  }
}
