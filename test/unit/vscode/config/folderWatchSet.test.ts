import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderWatchSet } from '../../../../src/vscode/config/folderWatchSet';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Polls until `check` holds (the watcher reports asynchronously); fails naming `what` after 10 s. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function setup(): { root: string; hooks: string; changed: string[]; watch: FolderWatchSet } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hookwise-folder-watch-'));
  const hooks = path.join(root, '.github', 'hooks');
  mkdirSync(hooks, { recursive: true });
  const changed: string[] = [];
  const watch = new FolderWatchSet((file) => changed.push(path.basename(file)));
  cleanups.push(() => {
    watch.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, hooks, changed, watch };
}

describe('FolderWatchSet (other agents’ hook folders)', () => {
  it('reports the hook files of a watched folder, not its other files', async () => {
    const { hooks, changed, watch } = setup();
    watch.update([{ base: hooks, pattern: '*.json' }]);
    writeFileSync(path.join(hooks, 'README.md'), 'notes');
    writeFileSync(path.join(hooks, 'guard.json'), '{}');
    await until('guard.json reported', () => changed.includes('guard.json'));
    expect(changed).not.toContain('README.md');
  });

  it('watches a folder deleted and created again under the same name once updated', async () => {
    const { root, hooks, changed, watch } = setup();
    watch.update([{ base: hooks, pattern: '*.json' }]);
    rmSync(path.join(root, '.github'), { recursive: true });
    mkdirSync(hooks, { recursive: true });
    watch.update([{ base: hooks, pattern: '*.json' }]);
    changed.length = 0;
    writeFileSync(path.join(hooks, 'team.json'), '{}');
    await until('team.json in the new folder reported', () => changed.includes('team.json'));
  });

  it('skips a folder that is not there, and stops reporting after dispose', async () => {
    const { root, hooks, changed, watch } = setup();
    watch.update([
      { base: path.join(root, '.cursor'), pattern: 'hooks.json' },
      { base: hooks, pattern: '*.json' },
    ]);
    watch.dispose();
    writeFileSync(path.join(hooks, 'late.json'), '{}');
    // A watcher still open would report this write before the next one's.
    const control: string[] = [];
    const other = new FolderWatchSet((file) => control.push(path.basename(file)));
    cleanups.push(() => other.dispose());
    other.update([{ base: hooks, pattern: '*.json' }]);
    writeFileSync(path.join(hooks, 'control.json'), '{}');
    await until('the control write reported', () => control.includes('control.json'));
    expect(changed).toEqual([]);
  });
});
