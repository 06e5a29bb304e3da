import { z } from 'zod';
import { protectedAliasOf } from './protectedAliases';
import { protectedBashReason } from './protectedBash';
import { protectedWriteOf } from './protectedWrites';

/**
 * Claude Code's permission modes: `default` asks for Bash/Write/Edit, `acceptEdits` lets
 * file edits inside the workspace through, `bypassPermissions` asks for nothing a rule or
 * mode could decide, `plan` is read-only. No mode ever overrides a hook's `ask`.
 */
export const permissionModeSchema = z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan']);

/** One of the permission modes. */
export type PermissionMode = z.infer<typeof permissionModeSchema>;

/** A rule-based verdict for one tool call, before any person is asked. */
export type PolicyVerdict =
  /** `rule`/`file`: the allow rule (or session grant) and where it was written or granted (`by: 'rule' | 'session'`). */
  | {
      readonly behavior: 'allow';
      readonly reason: string;
      readonly by: 'rule' | 'mode' | 'readOnly' | 'session';
      readonly rule?: string;
      readonly file?: string | undefined;
    }
  /** `rule`/`file`: the deny rule's text and where it was written (absent for a mode's deny). */
  | { readonly behavior: 'deny'; readonly reason: string; readonly by: 'rule' | 'mode'; readonly rule?: string; readonly file?: string | undefined }
  /**
   * `protected`: a write to a protected file (protectedWrites.ts) asks even when a hook, rule, grant or mode would allow it; it suggests no rule.
   * `restricted`: Restricted Mode (an untrusted workspace) asks before every tool call, past allow rules, grants, modes and hooks' allows; no rule either.
   */
  | { readonly behavior: 'ask'; readonly reason: string; readonly by: 'rule' | 'default' | 'protected' | 'restricted'; readonly suggestedRule?: string };

/**
 * The permission rules port: Claude Code's `permissions: {allow, deny, ask}` from the
 * settings files, evaluated deny > ask > allow. Implemented by the config layer.
 */
export interface PermissionRules {
  /** The strongest rule matching this call, or undefined. `rule` is its text, e.g. `Bash(npm test:*)`. */
  evaluate(
    toolName: string,
    input: Readonly<Record<string, unknown>>,
    cwd: string,
  ): { behavior: 'allow' | 'deny' | 'ask'; rule: string; source?: string } | undefined;
  /** The rule "Always Allow" would write for this call, e.g. `Bash(npm test:*)`. */
  suggest(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): string;
  /**
   * The Read deny (or ask) rule that hides one file inside a Grep/Glob result, or undefined.
   * `realPath` is the file's symlink-resolved path when the caller already knows it.
   */
  readDeniedBy?(absPath: string, realPath: string | undefined, cwd: string): string | undefined;
  /** Absolute (real) paths of the scripts configured hooks run: writing one always asks. */
  hookScripts?(): ReadonlySet<string>;
  /** Absolute (real) paths of the files hooks and rules were loaded from: changing one always asks. */
  configFiles?(): ReadonlySet<string>;
}

const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Why every tool call asks in an untrusted workspace (the popup's reason). */
export function restrictedModeReason(toolName: string): string {
  return `Restricted Mode: this workspace is not trusted, so Hookwise asks before every tool call (${toolName} too), whatever the rules, the mode or a hook allow`;
}

/**
 * Decides a tool call by mode and rules alone (no hooks, no person). Order: deny rules,
 * plan mode, protected writes (`.git`, `.claude`, `.vscode`, `.idea`, hook scripts), Restricted
 * Mode (`restricted`: every call asks), ask rules, allow rules / session grants, bypass and
 * acceptEdits modes, read-only tools, then `ask` for everything that needs approval.
 */
export function evaluatePolicy(params: {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly readOnly: boolean;
  readonly mode: PermissionMode;
  readonly cwd: string;
  readonly rules?: PermissionRules | undefined;
  /** Rules granted with "Allow for This Session". */
  readonly sessionRules?: PermissionRules | undefined;
  /** Restricted Mode (an untrusted workspace): every call that no deny stops asks a person. */
  readonly restricted?: boolean | undefined;
}): PolicyVerdict {
  const { toolName, input, readOnly, mode, cwd, rules } = params;
  const ruled = rules?.evaluate(toolName, input, cwd);
  if (ruled?.behavior === 'deny')
    return {
      behavior: 'deny',
      reason: `denied by permission rule ${ruled.rule}${ruled.source ? ` (${ruled.source})` : ''}`,
      by: 'rule',
      rule: ruled.rule,
      file: ruled.source,
    };
  if (mode === 'plan' && !readOnly) return { behavior: 'deny', reason: `plan mode is read-only: ${toolName} is not allowed`, by: 'mode' };
  const guarded = protectedCallReason(toolName, input, cwd, rules);
  if (guarded) return { behavior: 'ask', reason: guarded, by: 'protected' };
  if (params.restricted) return { behavior: 'ask', reason: restrictedModeReason(toolName), by: 'restricted' };
  if (ruled?.behavior === 'ask') {
    return {
      behavior: 'ask',
      reason: `permission rule ${ruled.rule} asks before ${toolName}`,
      by: 'rule',
      suggestedRule: rules?.suggest(toolName, input, cwd) ?? toolName,
    };
  }
  if (ruled?.behavior === 'allow')
    return { behavior: 'allow', reason: `allowed by permission rule ${ruled.rule}`, by: 'rule', rule: ruled.rule, file: ruled.source };
  const granted = params.sessionRules?.evaluate(toolName, input, cwd);
  if (granted?.behavior === 'allow')
    return { behavior: 'allow', reason: `allowed for this session (${granted.rule})`, by: 'session', rule: granted.rule, file: granted.source };
  if (mode === 'bypassPermissions') return { behavior: 'allow', reason: 'bypassPermissions mode', by: 'mode' };
  if (mode === 'acceptEdits' && EDIT_TOOLS.has(toolName)) return { behavior: 'allow', reason: 'acceptEdits mode', by: 'mode' };
  if (readOnly) return { behavior: 'allow', reason: `${toolName} is read-only`, by: 'readOnly' };
  return { behavior: 'ask', reason: `${toolName} needs your approval`, by: 'default', suggestedRule: rules?.suggest(toolName, input, cwd) ?? toolName };
}

const NO_FILES: ReadonlySet<string> = new Set();

/** Why this call touches protected files (protectedWrites.ts, protectedBash.ts) and must ask, or undefined. */
function protectedCallReason(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string, rules: PermissionRules | undefined): string | undefined {
  // By name first; then by where it really is (a symlinked `.claude`) and its inode (a hard link).
  if (EDIT_TOOLS.has(toolName))
    return (
      protectedWriteOf(input, cwd, rules?.hookScripts?.(), rules?.configFiles?.()) ??
      protectedAliasOf(input, cwd, rules?.hookScripts?.(), rules?.configFiles?.())
    );
  if (toolName === 'Bash' && typeof input.command === 'string')
    return protectedBashReason(input.command, cwd, rules?.hookScripts?.() ?? NO_FILES, rules?.configFiles?.() ?? NO_FILES);
  return undefined;
}
