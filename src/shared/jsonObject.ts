/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON object `text` holds, or undefined when it is not valid JSON, not an object, or
 * longer than `maxChars` (UTF-16 code units; default unlimited). Never throws.
 */
export function parseJsonObject(text: string, maxChars = Infinity): Record<string, unknown> | undefined {
  if (text.length > maxChars) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
