/**
 * Grep and Glob in the real extension host run on the ripgrep VS Code ships under
 * `vscode.env.appRoot` (code-server 4.139: @vscode/ripgrep-universal/bin/<platform>-<arch>/rg),
 * found without rg on PATH.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { createGrepTool } from '../../src/agent/tools/grepTool';
import type { GrepResponse } from '../../src/agent/tools/grepTool';
import { RipgrepLocator } from '../../src/agent/tools/ripgrep';
import { createTodoStore } from '../../src/agent/tools/todoStore';
import { shippedRipgrepCandidates } from '../../src/vscode/shippedRipgrep';

suite('The ripgrep VS Code ships', () => {
  test('is found under vscode.env.appRoot, and Grep runs on it (Rust regex syntax)', async () => {
    const said: string[] = [];
    const locator = new RipgrepLocator({ candidates: shippedRipgrepCandidates(vscode.env.appRoot), searchPath: false, onDiagnostic: (m) => said.push(m) });
    const rg = await locator.get();
    assert.deepEqual(said, []);
    assert.ok(rg, 'no rg under appRoot');
    assert.ok(rg.path.startsWith(vscode.env.appRoot), rg.path);
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-rg-host-')));
    try {
      await writeFile(path.join(dir, 'greek.txt'), 'αβγ\n');
      await writeFile(path.join(dir, 'latin.txt'), 'abc\n');
      const r = await createGrepTool({ ripgrep: locator }).execute(
        { pattern: '\\p{Greek}+' },
        { cwd: dir, workspaceRoot: dir, signal: new AbortController().signal, sessionId: 's', agentId: 'a', todos: createTodoStore() },
      );
      const data = r.data as GrepResponse;
      assert.equal(data.engine, 'ripgrep');
      assert.deepEqual(data.filenames, [path.join(dir, 'greek.txt')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
