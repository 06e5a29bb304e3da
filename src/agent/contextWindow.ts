/**
 * The model's context window and the prompt size at which a session compacts on its own.
 * The threshold is Claude Code's: the window less the room kept for the reply (the model's
 * maximum output, at most 20,000 tokens) less a 13,000-token margin — 167,000 of 200,000.
 */

/** The window assumed when none is configured and the model is not one of the known ones: Claude Code's default. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** Room kept for the model's reply: the maximum output tokens, capped at this. */
const MAX_OUTPUT_RESERVE = 20_000;

/** Margin below the effective window (the window less the reply's room) at which compaction starts. */
const AUTO_COMPACT_MARGIN = 13_000;

/**
 * Context windows of well-known model families, by name. A name that is not listed (a local
 * model, a proxy's alias) gets {@link DEFAULT_CONTEXT_WINDOW}; its window can be configured.
 */
const KNOWN_WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^(anthropic\/)?claude-/i, 200_000],
  [/^(openai\/)?gpt-4\.1/i, 1_047_576],
  [/^(openai\/)?gpt-5/i, 400_000],
  [/^(openai\/)?gpt-4o/i, 128_000],
  [/^(openai\/)?gpt-4-turbo/i, 128_000],
  [/^(openai\/)?o[134](-|$)/i, 200_000],
];

/** The window of a known model family, or undefined. */
export function knownContextWindow(modelName: string | undefined): number | undefined {
  if (!modelName) return undefined;
  return KNOWN_WINDOWS.find(([pattern]) => pattern.test(modelName.trim()))?.[1];
}

/**
 * The window a session measures against: the configured one (a positive number), else the
 * model's known window, else {@link DEFAULT_CONTEXT_WINDOW}.
 */
export function resolveContextWindow(configured: number | undefined, modelName: string | undefined): number {
  if (configured !== undefined && Number.isFinite(configured) && configured > 0) return Math.floor(configured);
  return knownContextWindow(modelName) ?? DEFAULT_CONTEXT_WINDOW;
}

/**
 * Prompt tokens above which the conversation is compacted before the next model call:
 * window − min(maxOutputTokens, 20,000) − 13,000, as Claude Code computes it (200,000 →
 * 167,000). Never below half the window: with a small window (a local model's 32,000) the
 * fixed reserves would leave nothing, and compacting at half still leaves room to work.
 */
export function autoCompactThreshold(contextWindow: number, maxOutputTokens: number = MAX_OUTPUT_RESERVE): number {
  const effective = contextWindow - Math.min(Math.max(0, maxOutputTokens), MAX_OUTPUT_RESERVE);
  return Math.max(effective - AUTO_COMPACT_MARGIN, Math.floor(contextWindow / 2));
}
