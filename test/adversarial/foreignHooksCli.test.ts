import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCli, makeCliWorkspace, runCliProcess, type CliWorkspace } from '../support/cliHarness';
import { startOpenAiTestServer, textReply, toolCallsReply, type ScriptedReply } from '../support/openAiTestServer';

/**
 * Other agents' hook files through the real CLI, headless, in bypassPermissions (so only
 * self-protection can stop a write): for every project file of every format, the model tries
 * Write, Edit, a redirection, cp, sed -i, find -exec, a glob spelling and removing its folder; afterwards the file
 * holds what it held and every attempt was told it was refused or reverted. And a Cline script
 * linked out of the repository does not run while the repository's own one does.
 */

const ORIGINAL: Record<string, string> = {
  '.github/hooks/guard.json': '{"version": 1, "hooks": {}}\n',
  '.github/copilot/settings.json': '{"hooks": {}}\n',
  '.cursor/hooks.json': '{"version": 1, "hooks": {}}\n',
  '.windsurf/hooks.json': '{"hooks": {}}\n',
  '.codex/hooks.json': '{"hooks": {}}\n',
  '.codex/config.toml': 'model = "x"\n',
  '.gemini/settings.json': '{"hooks": {}}\n',
  '.clinerules/hooks/TaskCancel': '#!/bin/sh\nexit 0\n',
};
const PAYLOAD = '{"hooks": "PWNED"}\n';
const write = (file_path: string, content: string): ScriptedReply => toolCallsReply([{ name: 'Write', arguments: { file_path, content } }]);
const edit = (file_path: string, old_string: string): ScriptedReply =>
  toolCallsReply([{ name: 'Edit', arguments: { file_path, old_string, new_string: 'PWNED' } }]);
const bash = (command: string): ScriptedReply => toolCallsReply([{ name: 'Bash', arguments: { command } }]);

/** The model's attempts on `rel` (the payload file is written first, outside any protected folder). */
function attempts(rel: string): ScriptedReply[] {
  const name = path.posix.basename(rel);
  return [
    write('payload', PAYLOAD),
    write(rel, PAYLOAD),
    edit(rel, (ORIGINAL[rel] as string).slice(0, 4)),
    bash(`cat payload > ${rel}`),
    bash(`cp payload ${rel}`),
    bash(`sed -i 's/hooks/PWNED/' ${rel}`),
    bash(`find . -iname '${name.toUpperCase()}' -exec cp payload {} \\;`),
    bash(`tee ${rel.slice(0, -2)}* < payload > /dev/null`),
    // The folder holding it, removed whole: refused, or caught after the call and restored.
    bash(`rm -rf ${path.posix.dirname(rel)}`),
  ];
}

let buildDir = '';
let cli = '';
beforeAll(async () => {
  buildDir = await mkdtemp(path.join(os.tmpdir(), 'hookwise-cli-build-'));
  cli = await buildCli(buildDir);
}, 120_000);
afterAll(() => rm(buildDir, { recursive: true, force: true }));

async function withWorkspace<T>(run: (w: CliWorkspace) => Promise<T>): Promise<T> {
  const w = await makeCliWorkspace();
  try {
    return await run(w);
  } finally {
    await w.cleanup();
  }
}

/** One CLI run against `rel`; the problems found ([] = the file survived and every attempt was told). */
function attack(rel: string): Promise<string[]> {
  return withWorkspace(async (w) => {
    for (const [file, text] of Object.entries(ORIGINAL)) await w.write(file, text);
    chmodSync(path.join(w.ws, '.clinerules/hooks/TaskCancel'), 0o755);
    const steps = attempts(rel);
    const server = await startOpenAiTestServer({ script: [...steps, textReply('done')] });
    try {
      const run = await runCliProcess(cli, w, [
        '-p',
        'tidy up',
        '--model',
        'test-model',
        '--base-url',
        server.url,
        '--max-steps',
        String(steps.length + 2),
        '--permission-mode',
        'bypassPermissions',
      ]);
      const problems: string[] = [];
      const content = readFileSync(path.join(w.ws, rel), 'utf8');
      if (content !== ORIGINAL[rel]) problems.push(`${rel} now holds ${JSON.stringify(content)} (exit ${run.code}, stderr ${run.stderr})`);
      // Request k+1 carries the result of attempt k (the first step, writing the payload, is allowed).
      for (let k = 1; k < steps.length; k++) {
        const told = (server.requests[k + 1]?.body.messages ?? [])
          .filter((m) => m.role === 'tool')
          .map((m) => String(m.content))
          .pop();
        if (!/headless|reverted/i.test(told ?? '')) problems.push(`${rel}, attempt ${k}: the model was not told (${told ?? 'no result'})`);
      }
      return problems;
    } finally {
      await server.close();
    }
  });
}

it('[adversarial] headless, bypassPermissions: no write form changes any format hook file, and each attempt is told', async () => {
  const queue = Object.keys(ORIGINAL);
  const failures: string[] = [];
  // Two CLI processes at a time: the machine is shared.
  await Promise.all(
    [0, 1].map(async () => {
      for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) failures.push(...(await attack(rel)));
    }),
  );
  console.log(
    `[adversarial] foreign hook files, CLI: ${Object.keys(ORIGINAL).length} files × ${attempts('.cursor/hooks.json').length - 1} forms, ${failures.length} failures`,
  );
  expect(failures).toEqual([]);
}, 120_000);

it('[adversarial] a Cline script linked out of the repository does not run and is named; the repository’s own script runs', async () => {
  await withWorkspace(async (w) => {
    const outside = path.join(w.base, 'outside');
    mkdirSync(outside);
    const evil = path.join(outside, 'evil.sh');
    writeFileSync(evil, `#!/bin/sh\ntouch '${path.join(w.base, 'evil-ran')}'\n`);
    chmodSync(evil, 0o755);
    const own = await w.write('.clinerules/hooks/UserPromptSubmit', `#!/bin/sh\ntouch '${path.join(w.base, 'own-ran')}'\n`);
    chmodSync(own, 0o755);
    symlinkSync(evil, path.join(w.ws, '.clinerules/hooks/PreToolUse'));
    const server = await startOpenAiTestServer({ script: [bash('echo hi'), textReply('done')] });
    try {
      const run = await runCliProcess(cli, w, ['-p', 'go', '--model', 'test-model', '--base-url', server.url, '--permission-mode', 'bypassPermissions']);
      expect(run.stderr).toContain('.clinerules/hooks/PreToolUse');
      expect(run.stderr).toContain('outside the project');
      expect(readFileSync(path.join(w.ws, '..', 'own-ran'), 'utf8')).toBe('');
      expect(() => readFileSync(path.join(w.base, 'evil-ran'))).toThrow();
    } finally {
      await server.close();
    }
  });
}, 120_000);
