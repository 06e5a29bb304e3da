import type { z } from 'zod';
import type { HookEvent } from './hookEvent';
import { environmentEventSchemas } from './inputs/environmentEventSchemas';
import { EVENTS_WITH_EFFORT, EVENTS_WITHOUT_PERMISSION_MODE } from './inputs/hookEnvelope';
import type { EnvelopeFields, HookwiseAgent, PermissionMode } from './inputs/hookEnvelope';
import { loopEventSchemas } from './inputs/loopEventSchemas';
import { sessionEventSchemas } from './inputs/sessionEventSchemas';
import { toolEventSchemas } from './inputs/toolEventSchemas';

/**
 * The input of one hook execution (docs/hooks.md §2): the stdin JSON of a command hook and the context
 * object of an in-process hook are the same snake_case object, so a Claude Code hook script
 * parses it unchanged. One strict zod schema per event (no field more, no field less than
 * the spec lists; see src/hooks/inputs/, by concept) and one typed builder, {@link forEvent},
 * so no caller assembles an input by hand.
 *
 * Claude Code's fields keep Claude's names and meaning (`agent_id` / `agent_type` only inside a
 * subagent); Hookwise's own agent fields are under `hookwise` on every input. `metadata`, on
 * every event and absent unless it carries something, is the agent run's state as merged by
 * earlier hooks (see {@link withContextMetadata}).
 */

/**
 * What the agent loop hands the builder: where and who. The builder turns it into the shared
 * fields (Claude's names for Claude's fields, the rest under `hookwise`).
 */
export interface HookEnvelope {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
  /** `default` when not given. */
  readonly permission_mode?: PermissionMode | undefined;
  readonly agent_id: string;
  /** null for the main agent. */
  readonly parent_agent_id: string | null;
  /** `main` for the main agent, else the subagent type. */
  readonly agent_type: string;
  /** Read for every input built, so all events of one prompt share the prompt's id. */
  readonly prompt_id?: (() => string | undefined) | undefined;
  readonly effort?: string | undefined;
}

const schemas = {
  ...sessionEventSchemas,
  ...toolEventSchemas,
  ...loopEventSchemas,
  ...environmentEventSchemas,
} satisfies { readonly [E in HookEvent]: z.ZodType };

/** Context type per event. */
export type HookContextMap = { readonly [E in HookEvent]: z.infer<(typeof schemas)[E]> };

/** The context of event `E`. */
export type HookContextFor<E extends HookEvent> = HookContextMap[E];

/** The context of any event (discriminated by `hook_event_name`). */
export type HookContext = HookContextMap[HookEvent];

/** The strict schema of each event's context, e.g. to check what a test or a replay feeds in. */
export const hookContextSchemas: { readonly [E in HookEvent]: z.ZodType<HookContextMap[E]> } = schemas;

/** Parses an unknown value as the context of `event` (never throws). */
export function parseHookContext<E extends HookEvent>(event: E, value: unknown): z.ZodSafeParseResult<HookContextMap[E]> {
  return (hookContextSchemas[event] as z.ZodType<HookContextMap[E]>).safeParse(value);
}

/**
 * Event-specific fields of `E`: its context minus the envelope, the event name and the run's
 * metadata; `permission_mode` may be given here to override the envelope's.
 */
export type HookContextFields<E extends HookEvent> = Omit<HookContextMap[E], keyof EnvelopeFields | 'hook_event_name' | 'metadata'> & {
  readonly permission_mode?: PermissionMode;
};

/** Hookwise-only fields of `E` beyond the agent's, which go under `hookwise` (e.g. SessionStart's `model`). */
export type HookwiseFields<E extends HookEvent> = Omit<HookContextMap[E]['hookwise'], keyof HookwiseAgent>;

/** The fields arguments of {@link forEvent}: optional for an event whose own fields all are. */
type FieldsArg<E extends HookEvent> =
  object extends HookContextFields<E>
    ? [fields?: HookContextFields<E>, hookwise?: HookwiseFields<E>]
    : [fields: HookContextFields<E>, hookwise?: HookwiseFields<E>];

/**
 * Builds the context of `event` on `env` from the event's own fields, typed by the event's
 * schema. Claude's shared fields come first, then the event name, then the event's own fields
 * in the order given (undefined ones left out, as in JSON), then `hookwise`: the key order a
 * Claude Code script sees on stdin. As in Claude Code, `permission_mode` is left out of the
 * events that never carry it (it goes under `hookwise` there) and `effort` is on tool-use
 * events only; `hookwiseFields` are the event's Hookwise-only fields, under `hookwise`. Frozen (shallowly, and `tool_input` too) because
 * in-process hooks share one object; a rewrite must go through updatedInput, never mutation.
 */
export function forEvent<E extends HookEvent>(event: E, env: HookEnvelope, ...[fields, hookwiseFields]: FieldsArg<E>): HookContextMap[E] {
  const ctx: Record<string, unknown> = { session_id: env.session_id, transcript_path: env.transcript_path, cwd: env.cwd };
  const mode = env.permission_mode ?? 'default';
  const modeAside = EVENTS_WITHOUT_PERMISSION_MODE.has(event);
  if (!modeAside) ctx.permission_mode = mode;
  const promptId = env.prompt_id?.();
  if (promptId !== undefined) ctx.prompt_id = promptId;
  if (env.effort !== undefined && EVENTS_WITH_EFFORT.has(event)) ctx.effort = { level: env.effort };
  if (env.parent_agent_id !== null) {
    ctx.agent_id = env.agent_id;
    ctx.agent_type = env.agent_type;
  }
  ctx.hook_event_name = event;
  if (fields !== undefined) {
    for (const [key, value] of Object.entries(fields as object)) {
      if (value === undefined) continue;
      ctx[key] = key === 'tool_input' && value !== null && typeof value === 'object' ? Object.freeze({ ...value }) : value;
    }
  }
  const own = Object.entries((hookwiseFields ?? {}) as object).filter(([, value]) => value !== undefined);
  ctx.hookwise = Object.freeze({
    agent_id: env.agent_id,
    parent_agent_id: env.parent_agent_id,
    agent_type: env.agent_type,
    ...(modeAside ? { permission_mode: mode } : {}),
    ...Object.fromEntries(own),
  });
  return Object.freeze(ctx) as HookContextMap[E];
}

/** Hookwise's agent fields of an input (`hookwise` key), or undefined for an input built elsewhere. */
export function hookwiseAgentOf(input: Readonly<Record<string, unknown>>): HookwiseAgent | undefined {
  const value = input['hookwise'];
  return value !== null && typeof value === 'object' ? (value as HookwiseAgent) : undefined;
}

/**
 * Returns a copy of `ctx` with `tool_input` (tool events) or `prompt` (UserPromptSubmit)
 * replaced: how the runner shows later priority tiers the input rewritten by earlier ones.
 */
export function withRewrittenInput<C extends Readonly<Record<string, unknown>>>(ctx: C, key: 'tool_input' | 'prompt', value: unknown): C {
  return Object.freeze({ ...ctx, [key]: key === 'tool_input' ? Object.freeze({ ...(value as object) }) : value }) as C;
}

/**
 * Returns a copy of `ctx` carrying the agent run's metadata (`metadata`, last key), or `ctx`
 * itself when there is none. `metadata` must already be frozen JSON (the run keeps it so):
 * in-process hooks share the object and must not be able to change the run's state by mutation.
 */
export function withContextMetadata<C extends Readonly<Record<string, unknown>>>(ctx: C, metadata: Readonly<Record<string, unknown>>): C {
  return Object.keys(metadata).length === 0 ? ctx : (Object.freeze({ ...ctx, metadata }) as C);
}
