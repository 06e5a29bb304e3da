import type { HookSource } from '../configFiles/hookSource';
import { describeSource } from '../configFiles/hookSource';
import type { PermissionContext, PermissionRuleEntry } from './permissionRules';
import { evaluatePermissionRules, parsePermissionRule, suggestRule } from './permissionRules';
import type { PermissionRules } from './permissionMode';

/**
 * The PermissionRules port over Claude Code `permissions` entries (deny > ask > allow),
 * plus `grant` for "Allow for This Session" (grants are allow rules kept in memory).
 */
export class ConfigPermissionRules implements PermissionRules {
  private readonly entries: PermissionRuleEntry[];
  /** The Read deny/ask rules with a path, fixed at construction (grants only add allow rules). */
  private readonly readBlocking: readonly PermissionRuleEntry[];

  constructor(
    entries: readonly PermissionRuleEntry[],
    private readonly ctx: PermissionContext,
    private readonly scripts: ReadonlySet<string> = new Set(),
    private readonly policyFiles: ReadonlySet<string> = new Set(),
  ) {
    this.entries = [...entries];
    this.readBlocking = entries.filter((e) => e.behavior !== 'allow' && e.rule.toolName === 'Read' && e.rule.specifier !== undefined);
  }

  hookScripts(): ReadonlySet<string> {
    return this.scripts;
  }

  configFiles(): ReadonlySet<string> {
    return this.policyFiles;
  }

  evaluate(
    toolName: string,
    input: Readonly<Record<string, unknown>>,
    cwd?: string,
  ): { behavior: 'allow' | 'deny' | 'ask'; rule: string; source?: string } | undefined {
    const hit = evaluatePermissionRules(this.entries, toolName, input, this.withCwd(cwd));
    return hit ? { behavior: hit.behavior, rule: hit.entry.rule.text, source: describeSource(hit.entry.source) } : undefined;
  }

  suggest(toolName: string, input: Readonly<Record<string, unknown>>, cwd?: string): string {
    return suggestRule(toolName, input, this.withCwd(cwd));
  }

  /**
   * The Read rule that hides one file from Grep and Glob, or undefined: a deny, and also an
   * ask, since no one is asked per file inside a search (hiding is the safe side). `absPath`
   * is the file as listed, `realPath` its symlink-resolved path when the caller knows it.
   * Costs nothing when no Read rule has a path (the common case).
   */
  readDeniedBy(absPath: string, realPath?: string, cwd?: string): string | undefined {
    if (this.readBlocking.length === 0) return undefined;
    return evaluatePermissionRules(this.readBlocking, 'Read', { file_path: absPath }, this.withCwd(cwd), realPath)?.entry.rule.text;
  }

  private withCwd(cwd: string | undefined): PermissionContext {
    return cwd === undefined ? this.ctx : { ...this.ctx, cwd };
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
