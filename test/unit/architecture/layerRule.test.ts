import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The layer rule of docs/architecture.md, as `npm run lint:layers` applies it: the repository's
 * own .dependency-cruiser.cjs run by the real dependency-cruiser on small trees, so a config
 * edit that stops catching a wrong import fails here.
 */
const repo = path.resolve(__dirname, '../../..');
const cruiser = path.join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const run = promisify(execFile);
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Writes `files` (path → source) under a fresh src/ tree and runs the layer check on it. */
async function cruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookwise-layers-'));
  dirs.push(dir);
  await copyFile(path.join(repo, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  try {
    const { stdout, stderr } = await run(process.execPath, [cruiser, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
      cwd: dir,
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('the layer rule', { timeout: 60_000 }, () => {
  it('lets a layer import the layers below it', async () => {
    const result = await cruise({
      'src/agent/loop.ts': "import { rule } from '../permissions/rule';\nexport const loop = rule;\n",
      'src/permissions/rule.ts': "import { read } from '../configFiles/read';\nexport const rule = read;\n",
      'src/configFiles/read.ts': 'export const read = 1;\n',
    });
    expect(result.output).toContain('no dependency violations');
    expect(result.code).toBe(0);
  });

  it('fails an import that points up, naming both layers', async () => {
    const result = await cruise({
      'src/hooks/hookEvent.ts': "import { runAgent } from '../agent/agentLoop';\nexport const x = runAgent;\n",
      'src/agent/agentLoop.ts': 'export const runAgent = 1;\n',
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('layer: hooks may not import agent: src/hooks/hookEvent.ts → src/agent/agentLoop.ts');
  });

  it('fails an import between the two front ends, which share a row', async () => {
    const result = await cruise({
      'src/cli/tty.ts': "import { text } from '../vscode/permissionText';\nexport const t = text;\n",
      'src/vscode/permissionText.ts': 'export const text = 1;\n',
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('layer: cli may not import vscode');
  });

  it('fails a cycle between modules of one folder', async () => {
    const result = await cruise({
      'src/agent/a.ts': "import { b } from './b';\nexport const a = (): number => b();\n",
      'src/agent/b.ts': "import { a } from './a';\nexport const b = (): number => a();\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-circular-folders');
  });
});
