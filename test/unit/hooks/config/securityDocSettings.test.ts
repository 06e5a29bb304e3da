import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOKWISE_SETTINGS } from '../../../../src/settings/hookwiseSettingsSchema';

// docs/security.md's "Who may set what" table must name every setting Hookwise reads, so a new
// setting cannot ship without saying whether a workspace may set it.

const doc = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'security.md'), 'utf8');

function tableRows(): string[] {
  const start = doc.indexOf('## Who may set what');
  const end = doc.indexOf('\n## ', start + 1);
  return doc
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `hookwise.'));
}

/** `hookwise.telemetry.enabled`, `.endpoint` → both full keys. */
function keysOf(row: string): string[] {
  const cell = row.split('|')[1] ?? '';
  const names = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
  const first = names[0] ?? '';
  const prefix = first.slice(0, first.lastIndexOf('.'));
  return names.map((n) => (n.startsWith('.') ? prefix + n : n));
}

describe('docs/security.md, who may set what', () => {
  it('lists every hookwise.* setting, each once', () => {
    const listed = tableRows().flatMap(keysOf);
    expect([...listed].sort()).toEqual(Object.keys(HOOKWISE_SETTINGS).sort());
  });
});
