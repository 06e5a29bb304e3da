import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeSource } from '../../src/configFiles/hookSource';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';

/**
 * A repository that links its hooks out of itself: a Cline script named after an event that is a
 * symlink to a program elsewhere on the machine, or a whole `.clinerules/hooks` (or `.clinerules`,
 * or Copilot's `.github/hooks`) folder that is one, by absolute or relative link, directly or
 * through a chain. None of those hooks may load (so none runs), a diagnostic names the link, and
 * the repository's own hooks and links that stay inside it still load.
 */

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const SCRIPT = '#!/bin/sh\nexit 0\n';
const COPILOT = JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'echo copilot' }] } });

interface LinkCase {
  readonly name: string;
  /** Builds the case under `ws` (the project) with `out` a folder outside it; returns the display names that must be refused. */
  readonly make: (ws: string, out: string) => string[];
}

function script(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, SCRIPT);
  chmodSync(file, 0o755);
}

const cases: LinkCase[] = [
  {
    name: 'an event script linked to an absolute path outside',
    make: (ws, out) => (symlinkSync(path.join(out, 'evil.sh'), path.join(ws, '.clinerules/hooks/PreToolUse')), ['.clinerules/hooks/PreToolUse']),
  },
  {
    name: 'an event script linked by a relative path outside',
    make: (ws) => (symlinkSync('../../../out/evil.sh', path.join(ws, '.clinerules/hooks/PostToolUse')), ['.clinerules/hooks/PostToolUse']),
  },
  {
    name: 'an event script linked through a link inside to a file outside',
    make: (ws, out) => {
      symlinkSync(path.join(out, 'evil.sh'), path.join(ws, 'tools-link'));
      symlinkSync('../../tools-link', path.join(ws, '.clinerules/hooks/UserPromptSubmit'));
      return ['.clinerules/hooks/UserPromptSubmit'];
    },
  },
  {
    name: 'the .clinerules/hooks folder linked outside',
    make: (ws, out) => {
      rmSync(path.join(ws, '.clinerules/hooks'), { recursive: true });
      symlinkSync(path.join(out, 'hooks'), path.join(ws, '.clinerules/hooks'));
      return ['.clinerules/hooks'];
    },
  },
  {
    name: 'the .clinerules folder linked outside (relative)',
    make: (ws) => {
      rmSync(path.join(ws, '.clinerules'), { recursive: true });
      symlinkSync('../out', path.join(ws, '.clinerules'));
      return ['.clinerules/hooks'];
    },
  },
  {
    name: "Copilot's .github/hooks folder linked outside",
    make: (ws, out) => {
      writeFileSync(path.join(out, 'hooks', 'evil.json'), COPILOT);
      symlinkSync(path.join(out, 'hooks'), path.join(ws, '.github/hooks'));
      return ['.github/hooks'];
    },
  },
];

/** The project's own hooks that must load in every case (unless the case removed their folder). */
const OWN = ['Cline .clinerules/hooks/TaskComplete', 'Cline .clinerules/hooks/Notification'];

it('[adversarial] hook scripts and folders linked out of the project do not load, a diagnostic names each, the rest loads', async () => {
  const failures: string[] = [];
  for (const c of cases) {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hw-format-links-')));
    roots.push(root);
    const ws = path.join(root, 'ws');
    const out = path.join(root, 'out');
    // Outside: a program and a hooks folder full of event scripts.
    script(path.join(out, 'evil.sh'));
    for (const event of ['PreToolUse', 'TaskStart']) script(path.join(out, 'hooks', event));
    // Inside: two scripts of the project's own, one through a link that stays inside.
    script(path.join(ws, '.clinerules/hooks/TaskComplete'));
    script(path.join(ws, 'scripts/notify.sh'));
    symlinkSync('../../scripts/notify.sh', path.join(ws, '.clinerules/hooks/Notification'));
    mkdirSync(path.join(ws, '.github'), { recursive: true });
    const refused = c.make(ws, out);
    const config = await loadHookConfig(standardConfigSources({ homeDir: path.join(root, 'home'), folders: [{ root: ws }], managedSettingsFile: null }), {
      projectDirs: [ws],
    });
    const loaded = config.hooks.map((h) => describeSource(h.source));
    const stray = loaded.filter((s) => !OWN.some((own) => s.startsWith(own)));
    if (stray.length > 0) failures.push(`${c.name}: loaded ${stray.join(', ')}`);
    // A case that replaced .clinerules/hooks took the project's own scripts with it.
    for (const own of refused.includes('.clinerules/hooks') ? [] : OWN)
      if (!loaded.some((s) => s.startsWith(own))) failures.push(`${c.name}: the project's own ${own} did not load`);
    for (const display of refused) {
      const named = config.diagnostics.find((d) => d.displayFile === display && d.code === 'outsideProject' && d.severity === 'error');
      if (named === undefined)
        failures.push(
          `${c.name}: no outsideProject error names ${display} (got: ${config.diagnostics.map((d) => `${d.displayFile} ${d.code}`).join(', ') || 'none'})`,
        );
      else if (!named.message.includes(out)) failures.push(`${c.name}: the diagnostic does not say where the link leads: ${named.message}`);
    }
  }
  console.log(`[adversarial] foreign hook links: ${cases.length} cases, ${failures.length} failures`);
  expect(failures).toEqual([]);
}, 30_000);
