// @ts-check
/**
 * Installs the test fixture extension test/fixtures/lmProvider (scripted vscode.lm models and
 * a language model tool) into an extensions dir, the way a user installs an extension: packaged
 * with @vscode/vsce and installed with code-server's `--install-extension`. Used by
 * runIntegration.mjs and runE2e.mjs so it runs beside Hookwise. (A second extensionDevelopmentPath
 * does not work in code-server: the workbench keeps its URL payload in a Map, so the last
 * development path replaces the first.)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './install.mjs';
import { installVsix, tempDir } from './codeServer.mjs';

/** Where the fixture's sources are. */
export const LM_PROVIDER_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'lmProvider');

/**
 * Packages and installs the fixture into `extensionsDir` (about a second).
 * @param {string} extensionsDir
 */
export function installLmProviderFixture(extensionsDir) {
  const stageRoot = tempDir('lm-provider');
  try {
    // vsce packages its working folder: stage a copy so nothing else of the repository is globbed.
    const stage = path.join(stageRoot, 'lmProvider');
    cpSync(LM_PROVIDER_FIXTURE, stage, { recursive: true });
    const vsix = path.join(stageRoot, 'lm-provider.vsix');
    const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix], {
      cwd: stage,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`vsce package of ${LM_PROVIDER_FIXTURE} failed (${r.status ?? r.error}):\n${r.stdout}${r.stderr}`);
    installVsix(vsix, extensionsDir);
  } finally {
    rmSync(stageRoot, { recursive: true, force: true });
  }
}
