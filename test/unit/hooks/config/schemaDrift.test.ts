import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  buildClaudeSettingsJsonSchema,
  buildConfigurationContribution,
  buildJsonValidationContribution,
  CLAUDE_SETTINGS_SCHEMA_PATH,
} from '../../../../src/settings/contributedSchemas';
import { HOOKWISE_SETTINGS, readHookwiseSettings } from '../../../../src/settings/hookwiseSettingsSchema';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const STALE = 'generated JSON Schema is stale: the zod schema in src/hooks/config changed — run npm run schemas (node scripts/generateSchemas.mjs)';

describe('JSON Schema drift check', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes?: Record<string, unknown> };

  it('package.json contributes.configuration matches the zod schema', () => {
    expect(pkg.contributes?.configuration, STALE).toEqual(buildConfigurationContribution());
  });

  it('package.json contributes.jsonValidation matches', () => {
    expect(pkg.contributes?.jsonValidation, STALE).toEqual(buildJsonValidationContribution());
  });

  it(`${CLAUDE_SETTINGS_SCHEMA_PATH} matches`, () => {
    const onDisk: unknown = JSON.parse(readFileSync(path.join(root, CLAUDE_SETTINGS_SCHEMA_PATH), 'utf8'));
    expect(onDisk, STALE).toEqual(buildClaudeSettingsJsonSchema());
  });
});

describe('contributed settings', () => {
  const { properties } = buildConfigurationContribution() as { properties: Record<string, Record<string, unknown>> };

  it('every hookwise.* key has a scope, a markdownDescription and a default', () => {
    expect(Object.keys(properties)).toEqual(Object.keys(HOOKWISE_SETTINGS));
    for (const [key, property] of Object.entries(properties)) {
      expect(property.scope, key).toBeTypeOf('string');
      expect(property.markdownDescription, key).toBeTypeOf('string');
      expect(property, key).toHaveProperty('default');
    }
    expect(properties['hookwise.hooks']?.scope).toBe('resource');
    expect(properties['hookwise.model.baseUrl']?.scope).toBe('machine-overridable');
    expect(properties['hookwise.agent.maxSubagentDepth']?.default).toBe(2);
    expect(properties['hookwise.hookRuns.maxRunsPerSession']?.default).toBe(5000);
    expect(properties['hookwise.permissions.askFallback']).toMatchObject({ default: 'deny', enum: ['deny', 'allow'] });
  });

  it('the hooks object flags unknown events and describes each event', () => {
    const hooks = properties['hookwise.hooks'] as {
      properties: Record<string, { markdownDescription: string }>;
      additionalProperties: boolean;
      patternProperties: Record<string, unknown>;
    };
    expect(hooks.additionalProperties).toBe(false);
    expect(hooks.properties.PreToolUse?.markdownDescription).toContain('tool_name');
    expect(Object.keys(hooks.patternProperties)).toEqual([expect.stringContaining('PreToolUse'), '^(enabled|sources)$']);
  });

  it('the shared groups schema is the real one (matcher + handlers union), in both outputs', () => {
    const claude = buildClaudeSettingsJsonSchema() as { properties: { hooks: unknown } };
    for (const hooksSchema of [properties['hookwise.hooks'], claude.properties.hooks]) {
      const groups = Object.values((hooksSchema as { patternProperties: Record<string, unknown> }).patternProperties)[0] as {
        type: string;
        items: {
          properties: {
            matcher: { type: string };
            hooks: { items: { oneOf: { properties: { type: { const: string }; timeout?: { exclusiveMinimum: number } } }[] } };
          };
          required: string[];
        };
      };
      expect(groups.type).toBe('array');
      expect(groups.items.required).toEqual(['hooks']);
      expect(groups.items.properties.matcher.type).toBe('string');
      const variants = groups.items.properties.hooks.items.oneOf;
      expect(variants.map((v) => v.properties.type.const)).toEqual(['command', 'prompt', 'agent', 'http', 'mcp_tool']);
      expect(variants[0]?.properties.timeout?.exclusiveMinimum).toBe(0);
    }
  });
});

describe('readHookwiseSettings', () => {
  it('applies defaults and reports wrong types', () => {
    const values: Record<string, unknown> = { 'hookwise.agent.maxSteps': 'lots', 'hookwise.permissions.mode': 'plan' };
    const { settings, problems } = readHookwiseSettings((key) => values[key]);
    expect(settings['hookwise.hooks.enabled']).toBe(true);
    expect(settings['hookwise.hooks.sources']).toEqual(['user', 'claudeUser', 'project', 'local', 'workspace', 'agents', 'plugins']);
    expect(settings['hookwise.permissions.mode']).toBe('plan');
    expect(settings['hookwise.agent.maxSteps']).toBe(50);
    expect(problems).toEqual([expect.stringContaining('hookwise.agent.maxSteps')]);
  });
});
