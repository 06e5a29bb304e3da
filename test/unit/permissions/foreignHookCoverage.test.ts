import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatPlaces } from '../../../src/hooks/formats/formatRegistry';
import { listProtectedFiles } from '../../../src/permissions/protectedFileSet';
import { protectedWriteReason } from '../../../src/permissions/protectedWrites';

// Every place another agent's hooks are read from is also named by the permission layer's own
// lists (which sit below src/hooks and cannot import the formats): a location added to a format
// and not there would let the model write hooks that then run without asking.

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hw-foreign-')));
const home = path.join(base, 'home');
const root = path.join(base, 'project');
const places = formatPlaces(home, [{ root, prefix: '' }], undefined);
const none = new Set<string>();

/** The file a place holds: the file itself, or one hooks file in a hooks folder. */
const fileOf = (place: (typeof places)[number]): string => (place.kind === 'directory' ? path.join(place.path, 'guard.json') : place.path);

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('every format location is protected', () => {
  it('the registry lists user and project places of every format', () => {
    expect(new Set(places.map((p) => p.format)).size).toBeGreaterThanOrEqual(6);
    expect(places.some((p) => p.scope === 'user')).toBe(true);
    expect(places.some((p) => p.kind === 'directory')).toBe(true);
  });

  it.each(places.map((p) => [`${p.scope} ${p.display}`, p] as const))('%s: writing it asks, for the file tools and the shell', (_name, place) => {
    const file = fileOf(place);
    expect(protectedWriteReason(file, none, none, 'fileTools')).toMatch(/hooks that Hookwise runs/);
    expect(protectedWriteReason(file, none, none, 'shell')).toMatch(/hooks that Hookwise runs/);
  });

  it('the protected listing (what the Bash backstop watches and links are checked against) holds every one that exists', () => {
    for (const place of places) {
      const file = fileOf(place);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, '{}');
    }
    const listed = new Set(listProtectedFiles([root], none, none, 'shell', home).files);
    const missing = places.map(fileOf).filter((file) => !listed.has(file));
    expect(missing).toEqual([]);
  });
});
