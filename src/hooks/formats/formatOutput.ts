import { parseJsonObject } from '../../shared/jsonObject';

/** Largest stdout read as JSON (other agents cap theirs at a few MiB; Hookwise caps the stream at 1 MiB anyway). */
const MAX_JSON_CHARS = 1024 * 1024;

/**
 * The final JSON object of a hook's stdout: the whole text when it is one object, else the last
 * line that is one (Copilot allows one-line progress records before its final object; they are
 * skipped with `skip`). Undefined when there is none; `malformed` when stdout looked like JSON
 * (began with `{`) and did not parse.
 */
export function finalJsonObject(
  stdout: string,
  skip: (obj: Record<string, unknown>) => boolean = () => false,
): { json?: Record<string, unknown>; malformed?: true } {
  const trimmed = stdout.trim();
  if (trimmed === '') return {};
  const whole = parseJsonObject(trimmed, MAX_JSON_CHARS);
  if (whole !== undefined && !skip(whole)) return { json: whole };
  const lines = trimmed
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    const obj = parseJsonObject(lines[i] ?? '', MAX_JSON_CHARS);
    if (obj !== undefined && !skip(obj)) return { json: obj };
  }
  return trimmed.startsWith('{') ? { malformed: true } : {};
}

/** A string field of a hook's JSON output, or undefined. */
export function outString(json: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = json?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** An object field of a hook's JSON output, or undefined. */
export function outObject(json: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  const v = json?.[key];
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** First line of stderr (or `fallback`), short enough for a reason. */
export function stderrReason(stderr: string, fallback: string): string {
  const text = stderr.trim();
  return text === '' ? fallback : text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
