import type { HookConfig } from '../config/hookConfigLoader';
import { filterByTrust, type HeldHook, type TrustPolicy } from '../config/hookApproval';
import { folderContains, type LoadedHook } from '../config/loadedHook';
import { MATCHER_FIELD, type HookEvent } from '../hookEvent';
import { describeSource } from '../../configFiles/hookSource';
import { isSwitchedOff } from '../config/hookSwitches';
import { compileHookCondition, TOOL_EVENTS } from '../hookCondition';
import { LEGACY_TOOL_NAME_ALIASES, tryCompileClaudeMatcher } from '../matchers/claudeMatcher';
import type { HookMatcher } from '../matchers/hookMatcher';
import { compileFormatMatcher } from '../formats/formatRegistry';
import type { HookRunRecord } from '../hookRunTypes';

/** What would happen to one configured hook for one event occurrence. */
export interface HookExplanation {
  readonly event: HookEvent;
  /** The handler's command, url or prompt (shortened), as a user recognises it. */
  readonly command: string;
  readonly type: string;
  readonly matcher?: string;
  /** `file › json path`, the same label Hook Runs and diagnostics use. */
  readonly source: string;
  /** `ran` only when explaining a real occurrence (ExplainQuery.session) and a record says it ran. */
  readonly outcome: 'ran' | 'would run' | 'skipped';
  /** Why it runs or is skipped, in a sentence. */
  readonly reason: string;
}

/** One event occurrence to explain: the input a hook would read (tool_name, tool_input, source, …). */
export interface ExplainQuery {
  readonly event: HookEvent;
  readonly input: Readonly<Record<string, unknown>>;
  /** The session's folder (multi-root: only that folder's project hooks apply). */
  readonly cwd: string;
  readonly trust: TrustPolicy;
  /** The subagent type the occurrence is in; undefined = the main agent. */
  readonly agentType?: string;
  /** Home directory, for `~/` patterns in a handler's `if`. */
  readonly homeDir?: string;
  /** `hookwise.hooks.disabled` ids; default: the config's own (`disabledHookIds`). */
  readonly disabled?: ReadonlySet<string>;
  /** What the session knew at a real occurrence (Hook Runs); absent = explaining without a session. */
  readonly session?: ExplainSession;
}

/** Session state behind one real event occurrence, so the list agrees with what actually ran. */
export interface ExplainSession {
  /** The executions of this occurrence: their hooks are listed as `ran`, with the decision. */
  readonly ran: readonly Pick<HookRunRecord, 'source' | 'status' | 'outcome' | 'error' | 'hookLabel' | 'actionKind'>[];
  /** Earlier executions in the same session, before this occurrence: a `once` hook among them was spent. */
  readonly before: readonly Pick<HookRunRecord, 'source' | 'event'>[];
  /** Skills the session had loaded (their SKILL.md hooks run); absent = none. */
  readonly skills?: ReadonlySet<string>;
}

/**
 * Every configured hook of `query.event`, in run order, with whether it would run for this
 * occurrence and why — without running anything (Hook Runs' "Why these hooks?", Explain Hooks…,
 * `hookwise hooks explain`). Duplicates dropped at load are listed as skipped with what they
 * duplicate; `disableAllHooks` skips everything and says who set it.
 */
export function explainHooks(config: HookConfig, query: ExplainQuery): HookExplanation[] {
  const off: HookExplanation[] = config.disabled
    ? [
        {
          event: query.event,
          command: config.hooks.length > 0 ? '(all hooks but the managed policy’s)' : '(all hooks)',
          type: '',
          source: config.disabledBy.join(', '),
          outcome: 'skipped',
          reason: `hooks are turned off by ${config.disabledBy.join(', ')}${config.hooks.length > 0 ? '; the managed policy’s hooks still run' : ''}`,
        },
      ]
    : config.projectHooksOffBy
      ? [
          {
            event: query.event,
            command: "(the project's hooks)",
            type: '',
            source: config.projectHooksOffBy.join(', '),
            outcome: 'skipped',
            reason: `the project's hooks are turned off by ${config.projectHooksOffBy.join(', ')}; the user's still run (a project cannot turn them off)`,
          },
        ]
      : [];
  if (config.disabled && config.hooks.length === 0) return off;
  const ofEvent = config.hooks.filter((h) => h.event === query.event);
  const { held } = filterByTrust(ofEvent, query.trust);
  const heldWhy = new Map(held.map((h) => [h.hook, HELD_REASONS[h.why]] as const));
  const field = MATCHER_FIELD[query.event];
  const raw = field === undefined ? undefined : query.input[field];
  const value = typeof raw === 'string' ? raw : '';
  const q = query.disabled === undefined && config.disabledHookIds !== undefined ? { ...query, disabled: config.disabledHookIds } : query;
  const out: HookExplanation[] = off.concat(ofEvent.map((hook) => explainOne(hook, q, heldWhy.get(hook), field, value)));
  // Runs no configured hook accounts for: API hooks, or hooks edited away since.
  for (const r of query.session?.ran ?? []) {
    const source = describeSource(r.source);
    if (r.source.kind !== 'code' && out.some((row) => row.outcome === 'ran' && row.source === source)) continue;
    out.push({
      event: query.event,
      command: r.hookLabel,
      type: r.actionKind,
      source,
      outcome: 'ran',
      reason: `${ranReason(r)}${r.source.kind === 'code' ? '' : ' (no longer in the configuration)'}`,
    });
  }
  for (const hook of config.managedOnly?.hooks ?? []) {
    if (hook.event !== query.event) continue;
    out.push({
      ...describe(hook),
      outcome: 'skipped',
      reason: `managed-only policy: ${config.managedOnly?.file ?? ''} allows only its own hooks (allowManagedHooksOnly)`,
    });
  }
  for (const dup of config.duplicates) {
    if (dup.dropped.event !== query.event) continue;
    out.push({
      ...describe(dup.dropped),
      outcome: 'skipped',
      reason: `identical to ${describeSource(dup.keptSource)}, which runs instead (identical hooks run once)`,
    });
  }
  return out;
}

const HELD_REASONS: Readonly<Record<HeldHook['why'], string>> = {
  untrusted: 'a project hook, and this workspace is not trusted',
  unapproved: 'a project hook you have not approved (or it changed since you did)',
};

function explainOne(hook: LoadedHook, query: ExplainQuery, heldReason: string | undefined, field: string | undefined, value: string): HookExplanation {
  const base = describe(hook);
  const skip = (reason: string): HookExplanation => ({ ...base, outcome: 'skipped', reason });
  // What ran is a fact; the rest is reasoned from the configuration as it is now.
  const ran = query.session?.ran.find((r) => r.source.kind !== 'code' && describeSource(r.source) === base.source);
  if (ran !== undefined) return { ...base, outcome: 'ran', reason: ranReason(ran) };
  if (hook.folder !== undefined && !folderContains(hook.folder, query.cwd)) return skip(`belongs to the workspace folder ${hook.folder}, not ${query.cwd}`);
  if (query.disabled !== undefined && isSwitchedOff(hook, query.disabled)) return skip('disabled by hookwise.hooks.disabled');
  if (heldReason !== undefined) return skip(heldReason);
  if (hook.agentType !== undefined && hook.agentType !== query.agentType)
    return skip(`scoped to the ${hook.agentType} agent; this occurrence is in ${query.agentType ?? 'the main agent'}`);
  if (hook.skill !== undefined && query.session?.skills?.has(hook.skill) !== true)
    return skip(`scoped to the ${hook.skill} skill, which ${query.session ? 'this session has not loaded' : 'runs only in a session that loaded it'}`);
  const compiled = matcherOf(hook);
  if (!compiled.ok) return skip(`is off: ${compiled.message}`);
  if (hook.format !== undefined && !compiled.matcher.matches({ event: query.event, input: query.input }))
    return skip(
      `${hook.format.binding.nativeEvent}${hook.matcher !== undefined ? ` with matcher \`${hook.matcher}\`` : ''} does not fire for this ${field ?? 'event'}${field !== undefined ? ` (${value})` : ''}`,
    );
  if (field !== undefined && !compiled.matcher.matches({ event: query.event, input: query.input }))
    return skip(`matcher \`${hook.matcher ?? ''}\` does not match ${field} \`${value}\``);
  const condition = (hook.handler as { readonly if?: unknown }).if;
  if (typeof condition === 'string' && condition !== '') {
    const compiled = compileHookCondition(condition, {
      projectRoot: query.cwd,
      cwd: query.cwd,
      ...(query.homeDir !== undefined ? { homeDir: query.homeDir } : {}),
    });
    if (typeof compiled === 'string') return skip(`is off: ${compiled}`);
    if (!TOOL_EVENTS.has(query.event) || !compiled.test(query.input))
      return skip(`\`if\` \`${condition}\` is false for this ${TOOL_EVENTS.has(query.event) ? 'tool call' : 'event (it tests tool calls only)'}`);
  }
  const once = (hook.handler as { readonly once?: unknown }).once === true;
  if (once && query.session?.before.some((r) => r.event === hook.event && r.source.kind !== 'code' && describeSource(r.source) === base.source))
    return skip('once: it already ran in this session');
  const matched =
    field === undefined
      ? `${query.event} ignores matchers: every hook of it runs`
      : hook.matcher === undefined || hook.matcher === '' || hook.matcher === '*'
        ? `no matcher: runs for every ${field}`
        : `matcher \`${hook.matcher}\` matches ${field} \`${value}\``;
  return { ...base, outcome: 'would run', reason: once && query.session === undefined ? `${matched} (once: not yet run)` : matched };
}

/** The hook's matcher: another agent's syntax for its files (formatRegistry.ts), else Claude Code's. */
function matcherOf(hook: LoadedHook): { readonly ok: true; readonly matcher: HookMatcher } | { readonly ok: false; readonly message: string } {
  if (hook.format !== undefined) return compileFormatMatcher(hook.format.binding, hook.event);
  const compiled = tryCompileClaudeMatcher(hook.matcher, { aliases: LEGACY_TOOL_NAME_ALIASES });
  return compiled.ok ? { ok: true, matcher: compiled.matcher } : { ok: false, message: compiled.error.message };
}

/** A run as the list says it: the decision and its reason, or how it ended without one. */
function ranReason(r: Pick<HookRunRecord, 'status' | 'outcome' | 'error'>): string {
  if (r.status === 'failed' || r.status === 'timed-out' || r.status === 'cancelled') return `ran: ${r.status}${r.error ? ` — ${r.error}` : ''}`;
  const decision = r.outcome?.decision;
  const reason = r.outcome?.reason;
  return decision === undefined ? `ran: no decision (${r.status})` : `ran: ${decision}${reason ? ` — ${reason}` : ''}`;
}

function describe(hook: LoadedHook): Omit<HookExplanation, 'outcome' | 'reason'> {
  return {
    event: hook.event,
    command: handlerText(hook),
    type: hook.handler.type,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    source: describeSource(hook.source),
  };
}

/** The handler as a user recognises it: the command, the URL, or the prompt's start. */
export function handlerText(hook: LoadedHook): string {
  const handler = hook.handler as unknown as Record<string, unknown>;
  for (const key of ['command', 'url', 'prompt']) {
    const v = handler[key];
    if (typeof v === 'string') return key === 'prompt' && v.length > 80 ? `${v.slice(0, 80)}…` : v;
  }
  return handler.type === undefined ? '' : String(handler.type);
}
