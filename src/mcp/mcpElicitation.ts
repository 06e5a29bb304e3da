import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** Most fields one elicitation may ask for (the rest of the form is refused). */
export const MAX_ELICITATION_FIELDS = 20;

/** One field of an elicitation form, reduced to what a prompt needs. */
export interface ElicitationField {
  readonly key: string;
  readonly title: string;
  readonly description?: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean';
  readonly required: boolean;
  /** Allowed values (string enums). */
  readonly options?: readonly string[];
  readonly defaultValue?: string | number | boolean;
}

/** A form the person is asked to fill, or why it cannot be shown. */
export type ElicitationForm =
  | { readonly ok: true; readonly server: string; readonly message: string; readonly fields: readonly ElicitationField[] }
  | { readonly ok: false; readonly error: string };

/**
 * Reads an `elicitation/create` request's flat schema (MCP allows only primitive fields:
 * string, number, integer, boolean, string enums). A URL elicitation or a schema with more
 * than {@link MAX_ELICITATION_FIELDS} fields is refused (the caller declines it).
 */
export function elicitationForm(server: string, params: ElicitRequest['params']): ElicitationForm {
  if ('mode' in params && params.mode === 'url') return { ok: false, error: 'URL elicitation is not supported' };
  const schema = (params as { requestedSchema?: { properties?: Record<string, unknown>; required?: string[] } }).requestedSchema;
  const properties = Object.entries(schema?.properties ?? {});
  if (properties.length > MAX_ELICITATION_FIELDS) return { ok: false, error: `the form has more than ${MAX_ELICITATION_FIELDS} fields` };
  const required = new Set(schema?.required ?? []);
  const fields: ElicitationField[] = [];
  for (const [key, raw] of properties) {
    const p = (raw ?? {}) as { type?: unknown; title?: unknown; description?: unknown; enum?: unknown; oneOf?: unknown; default?: unknown };
    const type = p.type === 'number' || p.type === 'integer' || p.type === 'boolean' ? p.type : 'string';
    const options = Array.isArray(p.enum)
      ? p.enum.filter((v): v is string => typeof v === 'string')
      : Array.isArray(p.oneOf)
        ? p.oneOf.flatMap((o: { const?: unknown }) => (typeof o?.const === 'string' ? [o.const] : []))
        : undefined;
    const def = p.default;
    fields.push({
      key,
      title: typeof p.title === 'string' ? p.title : key,
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
      type,
      required: required.has(key),
      ...(options && options.length > 0 ? { options } : {}),
      ...(typeof def === 'string' || typeof def === 'number' || typeof def === 'boolean' ? { defaultValue: def } : {}),
    });
  }
  return { ok: true, server, message: String(params.message ?? '').slice(0, 2000), fields };
}

/** Converts typed text for a field; undefined when it does not fit the field's type. */
export function parseFieldValue(field: ElicitationField, text: string): string | number | boolean | undefined {
  if (field.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n))) return undefined;
    return n;
  }
  if (field.options && !field.options.includes(text)) return undefined;
  return text;
}

/** The answer when nobody can be asked (headless, no hook answered): declined, as in Claude Code's `-p`. */
export const declineElicitation = (): Promise<ElicitResult> => Promise.resolve({ action: 'decline' });
