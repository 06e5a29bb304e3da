import { z } from 'zod';
import { HOOK_EVENTS, type HookEvent } from '../hookEvent';
import { closestName } from '../../configFiles/configDiagnostic';
import { hookToolConfigSchema, llmRequestPatchSchema, llmResponseSchema } from '../inputs/llmShapes';
import { lazySchema } from '../../shared/lazySchema';

/**
 * Claude Code's JSON hook output,
 * as zod. Objects are non-strict like Claude Code's: unknown keys pass (and are dropped), so
 * scripts written for later Claude Code versions still validate.
 */

const record = z.record(z.string(), z.unknown());

const preToolUseOutput = lazySchema(() =>
  z.object({
    hookEventName: z.literal('PreToolUse'),
    permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
    permissionDecisionReason: z.string().optional(),
    updatedInput: record.optional(),
    // Claude Code ignored this for PreToolUse until 2.1.9; we honour it.
    additionalContext: z.string().optional(),
  }),
);

const postToolUseOutput = lazySchema(() =>
  z.object({
    hookEventName: z.literal('PostToolUse'),
    additionalContext: z.string().optional(),
    // Claude Code 2.0.76 applied this to MCP tools only; 2.1.121 added `updatedToolOutput` for all tools. We honour both for all tools.
    updatedMCPToolOutput: z.unknown().optional(),
    updatedToolOutput: z.unknown().optional(),
  }),
);

const permissionRequestOutput = lazySchema(() =>
  z.object({
    hookEventName: z.literal('PermissionRequest'),
    decision: z.discriminatedUnion('behavior', [
      z.object({ behavior: z.literal('allow'), updatedInput: record.optional(), updatedPermissions: z.array(z.unknown()).optional() }),
      z.object({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
    ]),
  }),
);

// The model-level events take Gemini CLI's fields (BeforeModel, AfterModel, BeforeToolSelection).
const beforeInferenceOutput = lazySchema(() =>
  z.object({
    hookEventName: z.literal('BeforeInference'),
    additionalContext: z.string().optional(),
    llm_request: llmRequestPatchSchema.optional(),
    llm_response: llmResponseSchema.optional(),
  }),
);

const afterInferenceOutput = lazySchema(() =>
  z.object({
    hookEventName: z.literal('AfterInference'),
    additionalContext: z.string().optional(),
    llm_response: llmResponseSchema.optional(),
  }),
);

const beforeToolSelectionOutput = lazySchema(() =>
  z.object({
    hookEventName: z.literal('BeforeToolSelection'),
    additionalContext: z.string().optional(),
    toolConfig: hookToolConfigSchema.optional(),
  }),
);

type SpecificEvent = 'PreToolUse' | 'PostToolUse' | 'PermissionRequest' | 'BeforeInference' | 'AfterInference' | 'BeforeToolSelection';
const SPECIFIC_EVENTS = new Set<string>([
  'PreToolUse',
  'PostToolUse',
  'PermissionRequest',
  'BeforeInference',
  'AfterInference',
  'BeforeToolSelection',
] satisfies SpecificEvent[]);
/**
 * Every other event may carry `additionalContext`. Claude Code 2.0.76 accepted it only for
 * UserPromptSubmit, SessionStart, SubagentStart and PostToolUseFailure (others failed the
 * schema); later versions added more events, and our lifecycle events (BeforeStep…) need it.
 * Whether the context is used for a given event is the runner's decision.
 */
type OtherEvent = Exclude<HookEvent, SpecificEvent>;
const OTHER_EVENTS = HOOK_EVENTS.filter((e): e is OtherEvent => !SPECIFIC_EVENTS.has(e)) as [OtherEvent, ...OtherEvent[]];

const contextOutput = lazySchema(() =>
  z.object({
    hookEventName: z.enum(OTHER_EVENTS),
    additionalContext: z.string().optional(),
  }),
);

/** `hookSpecificOutput`, discriminated by `hookEventName`. */
export const hookSpecificOutputSchema = lazySchema(() =>
  z.discriminatedUnion('hookEventName', [
    preToolUseOutput,
    postToolUseOutput,
    permissionRequestOutput,
    beforeInferenceOutput,
    afterInferenceOutput,
    beforeToolSelectionOutput,
    contextOutput,
  ]),
);

/** Gemini CLI's names of the model-level events, as its hooks write them in `hookEventName`. */
export const GEMINI_OUTPUT_EVENT_NAMES: Readonly<Record<string, HookEvent>> = { BeforeModel: 'BeforeInference', AfterModel: 'AfterInference' };

/** The whole JSON object a command hook may print on stdout with exit 0. */
export const claudeHookOutputSchema = lazySchema(() =>
  z.object({
    continue: z.boolean().optional(),
    suppressOutput: z.boolean().optional(),
    stopReason: z.string().optional(),
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    systemMessage: z.string().optional(),
    hookSpecificOutput: hookSpecificOutputSchema.optional(),
  }),
);

/** The keys the schemas above read, derived on first use (the schemas are built then too). */
interface KnownKeys {
  /** Top-level keys Claude Code reads (plus the 2.0.76 async reply, which is not an error). */
  readonly topLevel: ReadonlySet<string>;
  /** Per event, the keys its `hookSpecificOutput` variant reads: derived from the union, so a variant added later is known here too. */
  readonly specific: ReadonlyMap<string, ReadonlySet<string>>;
  readonly anySpecific: ReadonlySet<string>;
}
let knownKeys: KnownKeys | undefined;

function known(): KnownKeys {
  knownKeys ??= {
    topLevel: new Set([...Object.keys(claudeHookOutputSchema.shape), 'async', 'asyncTimeout']),
    specific: new Map(
      hookSpecificOutputSchema.options.flatMap((option) => {
        const keys = new Set(Object.keys(option.shape));
        const discriminator = option.shape.hookEventName as z.ZodLiteral<string> | z.ZodEnum;
        const names = 'options' in discriminator ? discriminator.options : [...discriminator.values];
        return names.map((name) => [String(name), keys] as const);
      }),
    ),
    anySpecific: new Set(hookSpecificOutputSchema.options.flatMap((option) => Object.keys(option.shape))),
  };
  return knownKeys;
}

/**
 * Keys of a hook's JSON output that nothing reads, as warnings for the run record: Claude Code
 * drops them silently, so a typo (`"contineu": false`) fails open without a word. The
 * output still applies. At most 10 warnings.
 */
export function unknownOutputFields(json: Readonly<Record<string, unknown>>): string[] {
  const warnings: string[] = [];
  const warn = (key: string, where: string, known: readonly string[]): void => {
    if (warnings.length >= 10) return;
    const suggestion = closestName(key, known);
    warnings.push(`unknown field "${key}" ${where}; it is ignored${suggestion ? ` — did you mean "${suggestion}"?` : ''}`);
  };
  const { topLevel, specific: specificKeys, anySpecific } = known();
  for (const key of Object.keys(json)) if (!topLevel.has(key)) warn(key, "in the hook's JSON output", [...topLevel]);
  const specific = json.hookSpecificOutput;
  if (specific !== null && typeof specific === 'object' && !Array.isArray(specific)) {
    const name = (specific as { hookEventName?: unknown }).hookEventName;
    const keys = (typeof name === 'string' ? specificKeys.get(name) : undefined) ?? anySpecific;
    for (const key of Object.keys(specific)) if (!keys.has(key)) warn(key, `in hookSpecificOutput${typeof name === 'string' ? ` for ${name}` : ''}`, [...keys]);
  }
  return warnings;
}

/** Parsed and validated Claude hook output. */
export type ClaudeHookOutput = z.infer<typeof claudeHookOutputSchema>;

/** One line per problem, e.g. `decision: Invalid option: expected one of "approve"|"block"`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ');
}
