import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  contributes: { viewsContainers?: Record<string, unknown> };
};

/**
 * Manifest keys VS Code accepts only from a version on. An older VS Code that the `engines`
 * range still admits would install Hookwise and then throw on the key or drop it.
 */
const floors = [
  {
    key: 'contributes.viewsContainers.secondarySidebar',
    used: pkg.contributes.viewsContainers?.['secondarySidebar'] !== undefined,
    // 1.105 has it behind a proposed API and throws on the manifest key itself; final in 1.106
    // (microsoft/vscode#263786: "this is not possible and will require an engine bump").
    since: [1, 106] as const,
    version: '1.106',
  },
];

function minimumOf(range: string): [number, number] {
  const match = /^\^(\d+)\.(\d+)\.\d+$/.exec(range);
  if (!match) throw new Error(`engines.vscode ${JSON.stringify(range)} is not a caret range ^major.minor.patch`);
  return [Number(match[1]), Number(match[2])];
}

describe('engines.vscode admits only VS Code versions that accept the whole manifest', () => {
  it('the chat container in the secondary side bar is in the manifest (the check below is not vacuous)', () => {
    expect(floors.some((f) => f.used)).toBe(true);
  });

  it.each(floors.filter((f) => f.used))('$key needs VS Code $version or later', ({ since }) => {
    const [major, minor] = minimumOf(pkg.engines.vscode);
    expect(major > since[0] || (major === since[0] && minor >= since[1]), `engines.vscode ${pkg.engines.vscode}`).toBe(true);
  });
});
