import path from 'node:path';
import { expect, it } from 'vitest';
import { textReply } from '../../support/openAiTestServer';
import { useRuntimeEnv } from './runtimeHarness';

// A file attached in the chat (Add Context, #file, a dropped file) loads memory as a read does, as
// Claude Code does for an @-mentioned file: its folders' CLAUDE.md and the `paths:` rules matching
// it reach the model before the prompt, once per session, and InstructionsLoaded fires for each.

const env = useRuntimeEnv();

it('an attached file loads its folder CLAUDE.md and matching paths: rules before the prompt; InstructionsLoaded names the file', async () => {
  const { w } = env;
  await w.write('CLAUDE.md', 'Root rules.');
  await w.write('packages/api/CLAUDE.md', 'API: never log tokens.');
  await w.write('packages/api/src/server.ts', 'export const port = 1;');
  await w.write('packages/web/CLAUDE.md', 'WEB ONLY: use signals.');
  await w.write('.claude/rules/typescript.md', '---\npaths:\n  - "packages/**/*.ts"\n---\nTS: no any.');
  await w.settings({
    hooks: {
      InstructionsLoaded: [
        { hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR/instructions.log"; echo >> "$CLAUDE_PROJECT_DIR/instructions.log"' }] },
      ],
    },
  });
  const file = path.join(w.ws, 'packages/api/src/server.ts');
  const { server } = await env.runPrompt({
    script: [textReply('ok')],
    trusted: true,
    prompt: 'what does it do?',
    attachments: [`<system-reminder>\nContents of ${file}: export const port = 1;\n</system-reminder>`],
    attachedFiles: [file],
  });
  const messages = server.requests[0]?.body.messages ?? [];
  const at = (text: string): number => messages.findIndex((m) => m.role === 'user' && String(m.content).includes(text));
  expect(at('API: never log tokens.')).toBeGreaterThan(0);
  expect(at('API: never log tokens.')).toBeLessThan(at('what does it do?'));
  const reminder = String(messages[at('API: never log tokens.')]?.content);
  expect(reminder).toMatch(/^<system-reminder>\n/);
  expect(reminder).toContain('TS: no any.');
  expect(JSON.stringify(messages)).not.toContain('WEB ONLY');
  const loaded = w.jsonLines('instructions.log');
  expect(loaded.map((e) => [path.relative(w.ws, String(e.file_path)), e.load_reason, e.trigger_file_path])).toEqual([
    ['CLAUDE.md', 'session_start', undefined],
    ['packages/api/CLAUDE.md', 'nested_traversal', file],
    ['.claude/rules/typescript.md', 'path_glob_match', file],
  ]);
});
