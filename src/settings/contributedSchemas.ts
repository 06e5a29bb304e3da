import { z } from 'zod';
import { claudeSettingsFileSchema, SCHEMA_EVENT_NAMES, schemaEventDescription } from '../hooks/config/hookConfigSchema';
import { HOOKWISE_SETTINGS, type HookwiseSettingKey, type HookwiseSettingSpec } from './hookwiseSettingsSchema';
import { SETTING_POLICIES } from './settingPolicies';

/**
 * JSON Schema generated from the zod schemas, for package.json `contributes.configuration`,
 * `contributes.jsonValidation` and `schemas/claude-settings.schema.json`. Pure and
 * deterministic: scripts/generateSchemas.mjs writes it, the drift test compares it.
 */

/** Path of the generated Claude settings schema, relative to the extension root. */
export const CLAUDE_SETTINGS_SCHEMA_PATH = 'schemas/claude-settings.schema.json';

type JsonObject = Record<string, unknown>;

function toJsonSchema(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  // Post-process the finished tree: zod's `override` hook sees child schemas before they are
  // filled in, so rewriting there copies empty placeholders.
  walk(json);
  return json;
}

function walk(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(walk);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const json = node as JsonObject;
  dropSafeIntegerBounds(json);
  compactHooksObject(json);
  Object.values(json).forEach(walk);
}

/** zod writes ±2^53-1 bounds for every `.int()`; they say nothing to a user. */
function dropSafeIntegerBounds(json: JsonObject): void {
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
}

/**
 * The zod `hooks` object lists every event with the same groups schema; inlined, that is
 * 19 copies (package.json settings cannot use `$ref`). Rewritten here to one shared copy
 * under `patternProperties`, keeping per-event `properties` for completion and hover, and
 * `additionalProperties: false` so a typo reads "Property PreToolUSe is not allowed".
 */
function compactHooksObject(json: JsonObject): void {
  const properties = json.properties as Record<string, JsonObject> | undefined;
  if (!properties || Object.keys(properties).join('|') !== SCHEMA_EVENT_NAMES.join('|')) return;
  const first = properties[SCHEMA_EVENT_NAMES[0] as string];
  if (!first || first.type !== 'array') return;
  const { markdownDescription: _ignored, ...groups } = first;
  json.properties = Object.fromEntries(SCHEMA_EVENT_NAMES.map((event) => [event, { type: 'array', markdownDescription: schemaEventDescription(event) }]));
  json.patternProperties = { [`^(${SCHEMA_EVENT_NAMES.join('|')})$`]: groups };
  json.additionalProperties = false;
}

/** package.json `contributes.configuration`: one property per `hookwise.*` setting, with scope and order. */
export function buildConfigurationContribution(): JsonObject {
  const properties: JsonObject = {};
  let order = 0;
  for (const [key, spec] of Object.entries(HOOKWISE_SETTINGS) as [string, HookwiseSettingSpec][]) {
    const policy = SETTING_POLICIES[key as HookwiseSettingKey];
    properties[key] = { ...toJsonSchema(spec.schema), scope: spec.scope, order: order++, ...(policy ? { policy: { ...policy } } : {}) };
  }
  // VS Code nests `hookwise.hooks.enabled` and `.sources` into the `hookwise.hooks` value tree;
  // accept those two keys there silently (not offered in completion) so validation never flags them.
  const hooks = properties['hookwise.hooks'] as { patternProperties?: JsonObject } | undefined;
  if (hooks?.patternProperties) hooks.patternProperties = { ...hooks.patternProperties, '^(enabled|sources)$': {} };
  return { title: 'Hookwise', properties };
}

/** package.json `contributes.jsonValidation`: the Claude settings schema for `.claude` settings files. */
export function buildJsonValidationContribution(): JsonObject[] {
  return [{ fileMatch: ['**/.claude/settings.json', '**/.claude/settings.local.json'], url: `./${CLAUDE_SETTINGS_SCHEMA_PATH}` }];
}

/** The standalone JSON Schema file for Claude settings files. */
export function buildClaudeSettingsJsonSchema(): JsonObject {
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...toJsonSchema(claudeSettingsFileSchema), allowTrailingCommas: true, allowComments: true };
}
