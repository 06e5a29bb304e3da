// Generates JSON Schema from the zod schemas in src/settings and src/hooks/config (the one source of truth):
//   - package.json contributes.configuration and contributes.jsonValidation (only those two keys)
//   - schemas/claude-settings.schema.json
// Usage: node scripts/generateSchemas.mjs [--check]   (--check: exit 1 when anything is stale)
// The TypeScript is bundled in memory with esbuild, so no build step is needed first.
import { build } from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const bundle = await build({
  stdin: {
    contents: "export * from './src/settings/contributedSchemas'; export { modify, applyEdits } from 'jsonc-parser';",
    resolveDir: root,
    loader: 'ts',
    sourcefile: 'generateSchemasEntry.ts',
  },
  bundle: true,
  platform: 'node',
  // jsonc-parser's UMD main does dynamic requires esbuild cannot follow; its ESM build is clean.
  mainFields: ['module', 'main'],
  format: 'esm',
  write: false,
  logLevel: 'warning',
});
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hookwise-schemas-'));
let lib;
try {
  const entry = path.join(tmp, 'generateSchemas.bundle.mjs');
  writeFileSync(entry, bundle.outputFiles[0].text);
  lib = await import(pathToFileURL(entry).href);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const configuration = lib.buildConfigurationContribution();
const jsonValidation = lib.buildJsonValidationContribution();
const claudeSchemaText = `${JSON.stringify(lib.buildClaudeSettingsJsonSchema(), null, 2)}\n`;
const schemaFile = path.join(root, lib.CLAUDE_SETTINGS_SCHEMA_PATH);

const stale = [];
let schemaOnDisk;
try {
  schemaOnDisk = readFileSync(schemaFile, 'utf8');
} catch {
  schemaOnDisk = undefined;
}
if (schemaOnDisk !== claudeSchemaText) {
  stale.push(lib.CLAUDE_SETTINGS_SCHEMA_PATH);
  if (!check) {
    mkdirSync(path.dirname(schemaFile), { recursive: true });
    writeFileSync(schemaFile, claudeSchemaText);
  }
}

// package.json: read-modify-write in one synchronous step, touching only our two keys, so a
// concurrent edit of another section (scripts…) is never lost or reformatted.
const pkgFile = path.join(root, 'package.json');
const formattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
let text = readFileSync(pkgFile, 'utf8');
const pkg = JSON.parse(text);
for (const [key, value] of [
  ['configuration', configuration],
  ['jsonValidation', jsonValidation],
]) {
  if (JSON.stringify(pkg.contributes?.[key]) === JSON.stringify(value)) continue;
  stale.push(`package.json contributes.${key}`);
  text = lib.applyEdits(text, lib.modify(text, ['contributes', key], value, { formattingOptions }));
}
if (!check && stale.some((s) => s.startsWith('package.json'))) writeFileSync(pkgFile, text);

if (stale.length === 0) console.log('schemas: up to date');
else if (check) {
  console.error(`schemas: stale: ${stale.join(', ')} — run npm run schemas`);
  process.exit(1);
} else console.log(`schemas: wrote ${stale.join(', ')}`);
