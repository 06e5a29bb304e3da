import { linkSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CliWorkspace } from '../support/cliHarness';
import { buildCli, makeCliWorkspace, runCliProcess } from '../support/cliHarness';
import type { ScriptedReply } from '../support/openAiTestServer';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../support/openAiTestServer';

/**
 * Self-protection bypasses (issue 25, item 10), each run through the real CLI with real bash
 * and git/patch/find processes and a scripted model: every write form × every protected file
 * kind (the project's settings.json, a hook's script, .mcp.json, .vscode/settings.json). After
 * the run the file must hold its original content, and the model must have been told: the
 * call asked (denied headless) or the change was reverted.
 */

interface Kind {
  readonly name: string;
  /** The protected file, relative to the workspace. */
  readonly rel: string;
  readonly original: string;
  /** Shell spellings of `rel` that no name check of the old sources saw. */
  readonly brace: string;
  readonly ansiC: string;
  /** find's test and pattern that select it without spelling it. */
  readonly find: string;
  /** The symlinked folder (or file) and the alias a Write uses, or undefined when already covered by name. */
  readonly symlink?: { readonly link: string; readonly real: string; readonly alias: string };
}

const kinds: Kind[] = [
  {
    name: 'settings.json',
    rel: '.claude/settings.json',
    original: '{"cleanupPeriodDays": 30}\n',
    brace: '.cl{a,}ude/settings.json',
    ansiC: "$'\\x2e'claude/settings.json",
    find: '-iname SETTINGS.JSON',
    symlink: { link: '.claude', real: 'conf', alias: 'conf/settings.json' },
  },
  {
    name: 'hook script',
    rel: 'scripts/guard.sh',
    original: 'exit 0\n',
    brace: 'scripts/gu{a,}rd.sh',
    ansiC: "scripts/$'\\x67'uard.sh",
    find: '-iname GUARD.SH',
  },
  {
    name: '.mcp.json',
    rel: '.mcp.json',
    original: '{"mcpServers": {}}\n',
    brace: '.mc{p,}.json',
    ansiC: "$'\\x2e'mcp.json",
    find: '-iname .MCP.JSON',
    symlink: { link: '.mcp.json', real: 'mcp.json', alias: 'mcp.json' },
  },
  {
    name: '.vscode/settings.json',
    rel: '.vscode/settings.json',
    original: '{"editor.tabSize": 2}\n',
    brace: '.vs{c,}ode/settings.json',
    ansiC: "$'\\x2e'vscode/settings.json",
    find: '-ipath ./.VSCODE/SETTINGS.JSON',
    symlink: { link: '.vscode', real: 'editor', alias: 'editor/settings.json' },
  },
];

const PAYLOAD = '{"hooks": "PWNED"}\n';
const write = (file_path: string, content: string): ScriptedReply => toolCallsReply([{ name: 'Write', arguments: { file_path, content } }]);
const bash = (command: string): ScriptedReply => toolCallsReply([{ name: 'Bash', arguments: { command } }]);
const diff = (k: Kind): string => `--- a/${k.rel}\n+++ b/${k.rel}\n@@ -1 +1 @@\n-${k.original.trimEnd()}\n+PWNED\n`;

interface Form {
  readonly name: string;
  readonly flags: readonly string[];
  /** The model's calls; undefined when the form does not apply to the kind. */
  steps(k: Kind): ScriptedReply[] | undefined;
  /** Prepares the workspace beyond the protected file (a symlink, a hard link). */
  setup?(k: Kind, w: CliWorkspace): boolean;
}

const ACCEPT_EDITS = ['--permission-mode', 'acceptEdits'];
const BYPASS = ['--permission-mode', 'bypassPermissions'];

const forms: Form[] = [
  {
    name: 'git apply (only Bash(git:*) + acceptEdits)',
    flags: [...ACCEPT_EDITS, '--allowed-tools', 'Bash(git:*)'],
    steps: (k) => [write('change.diff', diff(k)), bash('git apply change.diff')],
  },
  {
    // No patch, no name: a commit built by fast-import from a file the model wrote, then checked out.
    name: 'git fast-import + checkout (only Bash(git:*) + acceptEdits), the backstop',
    flags: [...ACCEPT_EDITS, '--allowed-tools', 'Bash(git:*)'],
    steps: (k) => [
      write('import.txt', `commit refs/heads/pwn\ncommitter a <a@b> 0 +0000\ndata 0\nM 100644 inline ${k.rel}\ndata 6\nPWNED\n\n`),
      bash('git init -q'),
      bash('git fast-import --quiet < import.txt'),
      bash('git checkout -qf pwn'),
    ],
  },
  {
    name: 'patch',
    flags: [...ACCEPT_EDITS, '--allowed-tools', 'Bash(patch:*)'],
    steps: (k) => [write('change.diff', diff(k)), bash('patch -p1 -i change.diff')],
  },
  {
    name: 'find -iname … -exec',
    flags: BYPASS,
    steps: (k) => [write('payload', PAYLOAD), bash(`find . ${k.find} -exec cp payload {} \\;`)],
  },
  {
    name: 'bash -c with brace expansion',
    flags: BYPASS,
    steps: (k) => [write('payload', PAYLOAD), bash(`bash -c 'tee ${k.brace} < payload > /dev/null'`)],
  },
  {
    name: "bash -c with $'\\x2e…'",
    flags: BYPASS,
    steps: (k) => [write('payload', PAYLOAD), bash(`bash -c "cp payload ${k.ansiC.replace(/\\/g, '\\\\')}"`)],
  },
  {
    name: 'hard link made by Bash, then Write',
    flags: BYPASS,
    steps: (k) => [bash(`ln "$(printf '%s%s' '${k.rel.slice(0, 3)}' '${k.rel.slice(3)}')" notes.txt`), write('notes.txt', PAYLOAD)],
  },
  {
    name: 'hard link (made earlier), then Write in acceptEdits',
    flags: ACCEPT_EDITS,
    setup: (k, w) => (linkSync(path.join(w.ws, k.rel), path.join(w.ws, 'notes.txt')), true),
    steps: () => [write('notes.txt', PAYLOAD)],
  },
  {
    name: 'symlinked protected folder, then Write in acceptEdits',
    flags: ACCEPT_EDITS,
    setup: (k, w) => {
      if (!k.symlink) return false;
      const { link, real } = k.symlink;
      renameSync(path.join(w.ws, link), path.join(w.ws, real));
      symlinkSync(real, path.join(w.ws, link));
      return true;
    },
    steps: (k) => (k.symlink ? [write(k.symlink.alias, PAYLOAD)] : undefined),
  },
  {
    name: 'a program writing a name built at run time (node -e), the backstop',
    flags: [...ACCEPT_EDITS, '--allowed-tools', 'Bash(node:*)'],
    steps: (k) => [bash(`node -e "require('fs').writeFileSync(String.fromCharCode(${k.rel.charCodeAt(0)}) + '${k.rel.slice(1)}', 'PWNED')"`)],
  },
];

let buildDir = '';
let cli = '';
beforeAll(async () => {
  buildDir = await mkdtemp(path.join(os.tmpdir(), 'hookwise-cli-build-'));
  cli = await buildCli(buildDir);
});
afterAll(() => rm(buildDir, { recursive: true, force: true }));

/** Runs one case; returns a failure description, `ok` when the file survived and the model was told, undefined when the form does not apply. */
async function runCase(k: Kind, form: Form): Promise<string | undefined> {
  const steps = form.steps(k);
  if (!steps) return undefined;
  const w = await makeCliWorkspace();
  try {
    for (const other of kinds) await w.write(other.rel, other.original);
    // The project hook whose script is protected; it never fires (NotebookEdit is never called).
    const hook = { type: 'command', command: 'bash "$CLAUDE_PROJECT_DIR"/scripts/guard.sh' };
    await w.write('.claude/settings.local.json', JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'NotebookEdit', hooks: [hook] }] } }));
    if (form.setup && !form.setup(k, w)) return undefined;
    const server = await startOpenAiTestServer({ script: [...steps, textReply('done')] });
    try {
      const run = await runCliProcess(cli, w, ['-p', 'tidy up', '--model', 'test-model', '--base-url', server.url, '--max-steps', '8', ...form.flags]);
      const content = readFileSync(path.join(w.ws, k.rel), 'utf8');
      const last = server.requests[server.requests.length - 1]?.body.messages ?? [];
      const told = last
        .filter((m) => m.role === 'tool')
        .map((m) => String(m.content))
        .join('\n');
      if (content !== k.original) return `${form.name} × ${k.name}: the file now holds ${JSON.stringify(content)} (exit ${run.code}; tool results: ${told})`;
      if (!/headless|reverted/i.test(told)) return `${form.name} × ${k.name}: the model was not told (tool results: ${told}; stderr: ${run.stderr})`;
      // A revert is logged too (stderr), not only told to the model.
      if (/reverted/.test(told) && !run.stderr.includes('hookwise: Self-protection: Hookwise reverted'))
        return `${form.name} × ${k.name}: the revert was not logged (stderr: ${run.stderr})`;
      return 'ok';
    } finally {
      await server.close();
    }
  } finally {
    rmSync(path.join(w.ws, 'notes.txt'), { force: true });
    await w.cleanup();
  }
}

it('[adversarial] every self-protection bypass × every protected file kind leaves the file as it was and tells the model', async () => {
  const cases = kinds.flatMap((k) => forms.map((form) => ({ k, form })));
  const failures: string[] = [];
  let ran = 0;
  // Three CLI processes at a time: the machine is shared.
  const queue = [...cases];
  await Promise.all(
    [0, 1, 2].map(async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const outcome = await runCase(c.k, c.form);
        if (outcome !== undefined) ran++;
        if (outcome !== undefined && outcome !== 'ok') failures.push(outcome);
      }
    }),
  );
  console.log(`[adversarial] self-protection CLI: ${ran} write forms × kinds, ${failures.length} failures`);
  expect(failures).toEqual([]);
}, 300_000);
