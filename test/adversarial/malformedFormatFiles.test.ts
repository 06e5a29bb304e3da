import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConfigFileSystem } from '../../src/configFiles/configFileSystem';
import { MAX_CONFIG_DEPTH, MAX_CONFIG_FILE_BYTES } from '../../src/configFiles/configLimits';
import { describeSource } from '../../src/configFiles/hookSource';
import { formatJsonPath } from '../../src/configFiles/jsonPath';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig, type HookConfig } from '../../src/hooks/config/hookConfigLoader';
import { MAX_COMMAND_CHARS, MAX_FORMAT_ENTRIES } from '../../src/hooks/formats/formatJson';
import { memoryFs } from '../unit/hooks/config/configTestKit';
import { formatFileKinds, formatText, withValue, WRONG_VALUES, type FieldType, type FormatFileKind } from './support/formatCorpus';

/**
 * Bad input in other agents' hook files: every format's project file is broken one way at a time
 * (every field given every wrong type, the wrong type at the top, nested past the depth cap,
 * over the size cap, too many entries, an over-long command) next to a good `.claude` user file
 * and a good file of every other format. Each case must load without throwing, give an error or
 * warning naming the file and the place (JSON path, and line where the format has lines), and
 * leave every other source's hook loaded.
 */

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const HOME = path.resolve('/home/u');
const WS = path.resolve('/ws');
const kinds = formatFileKinds();
const USER_SETTINGS = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user-policy' }] }] } });

/** A case: one kind's file replaced by `text`, every other file good. */
interface BadFile {
  readonly name: string;
  readonly kind: FormatFileKind;
  readonly text: string;
  /** The place a diagnostic must name: its JSON path (`''` = the file as a whole). */
  readonly at: string;
}

function goodFiles(ws: string, home: string): Record<string, string> {
  const files: Record<string, string> = { [path.join(home, '.claude', 'settings.json')]: USER_SETTINGS };
  for (const k of kinds) files[path.join(ws, ...k.rel.split('/'))] = formatText(k, k.doc);
  return files;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (hang)`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The problems of one case's outcome; [] = safe. */
async function check(c: BadFile, fs: ConfigFileSystem | undefined, ws: string, home: string): Promise<string[]> {
  let config: HookConfig;
  try {
    config = await withDeadline(
      loadHookConfig(standardConfigSources({ homeDir: home, folders: [{ root: ws }], managedSettingsFile: null }), {
        ...(fs !== undefined ? { fs } : {}),
        projectDirs: [ws],
      }),
      10_000,
      'loadHookConfig',
    );
  } catch (error) {
    return [`threw: ${String(error)}`];
  }
  const problems: string[] = [];
  const sources = config.hooks.map((h) => describeSource(h.source));
  if (!config.hooks.some((h) => describeSource(h.source).startsWith('~/.claude/settings.json'))) problems.push("the user's .claude hook did not load");
  for (const other of kinds)
    if (other !== c.kind && !sources.some((s) => s.includes(other.rel))) problems.push(`the good ${other.rel} did not load (loaded: ${sources.join(', ')})`);
  const abs = path.join(ws, ...c.kind.rel.split('/'));
  const named = config.diagnostics.filter((d) => d.file === abs);
  const placed = named.filter((d) => d.jsonPath === c.at || (c.at !== '' && (d.jsonPath.startsWith(`${c.at}.`) || d.jsonPath.startsWith(`${c.at}[`))));
  if (placed.length === 0)
    problems.push(`no diagnostic names ${c.kind.rel} at "${c.at}" (got: ${named.map((d) => `${d.jsonPath} ${d.code}: ${d.message}`).join(', ') || 'none'})`);
  // A place in a JSON or TOML file has a line too (a file refused unread has none).
  else if (c.kind.syntax !== 'script' && c.at !== '' && !placed.some((d) => d.line !== undefined)) problems.push(`the diagnostic at "${c.at}" has no line`);
  return problems;
}

/** Every field of every kind given every value of a type it does not accept. */
function wrongTypeCases(): BadFile[] {
  const cases: BadFile[] = [];
  for (const kind of kinds)
    for (const field of kind.fields)
      for (const [type, value] of Object.entries(WRONG_VALUES)) {
        if (field.types.includes(type as FieldType) || (kind.syntax === 'toml' && value === null)) continue;
        cases.push({
          name: `${kind.rel} ${formatJsonPath(field.path)} = ${type}`,
          kind,
          text: formatText(kind, withValue(kind.doc, field.path, value)),
          at: formatJsonPath(field.path),
        });
      }
  for (const kind of kinds.filter((k) => k.syntax === 'json'))
    for (const top of ['["hooks"]', '7', '"hooks"', 'null', 'true', 'hooks: yes'])
      cases.push({ name: `${kind.rel} top level ${top}`, kind, text: top, at: '' });
  return cases;
}

/** Bounded inputs: too many entries, an over-long command, nesting past the cap inside a field. */
function boundCases(): BadFile[] {
  const cases: BadFile[] = [];
  const deep = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);
  for (const kind of kinds.filter((k) => k.syntax !== 'script')) {
    const field = kind.fields.find((f) => f.types.includes('array') && f.path.length === 2 && f.path[0] === 'hooks');
    const command = kind.fields.find((f) => f.path[f.path.length - 1] === 'command' || f.path[f.path.length - 1] === 'bash');
    if (field === undefined || command === undefined) throw new Error(`${kind.rel}: no event list or command in the corpus`);
    const list = (kind.doc.hooks as Record<string, unknown[]>)[field.path[1] as string] as unknown[];
    const many = Array.from({ length: MAX_FORMAT_ENTRIES + 50 }, () => list[0]);
    cases.push({
      name: `${kind.rel} ${many.length} entries`,
      kind,
      text: formatText(kind, withValue(kind.doc, field.path, many)),
      at: formatJsonPath(field.path),
    });
    cases.push({
      name: `${kind.rel} a command of ${MAX_COMMAND_CHARS + 1} characters`,
      kind,
      text: formatText(kind, withValue(kind.doc, command.path, `echo ${'x'.repeat(MAX_COMMAND_CHARS)}`)),
      at: formatJsonPath(command.path),
    });
    if (kind.syntax === 'json') {
      const deepText = formatText(kind, withValue(kind.doc, command.path, 'echo x')).replace('"echo x"', JSON.stringify(deep(MAX_CONFIG_DEPTH + 5)));
      cases.push({ name: `${kind.rel} nested ${MAX_CONFIG_DEPTH + 5} deep in a field`, kind, text: deepText, at: '' });
      cases.push({ name: `${kind.rel} nested 100000 deep`, kind, text: `{"hooks": ${'['.repeat(100_000)}`, at: '' });
    } else {
      cases.push({
        name: `${kind.rel} nested ${MAX_CONFIG_DEPTH + 5} deep`,
        kind,
        text: `a = ${'['.repeat(MAX_CONFIG_DEPTH + 5)}${']'.repeat(MAX_CONFIG_DEPTH + 5)}\n`,
        at: '',
      });
      cases.push({ name: `${kind.rel} nested 100000 deep`, kind, text: `a = ${'['.repeat(100_000)}\n`, at: '' });
      cases.push({ name: `${kind.rel} not TOML`, kind, text: '[[[ hooks\n= =', at: '' });
    }
  }
  return cases;
}

async function runInMemory(cases: readonly BadFile[]): Promise<string[]> {
  const failures: string[] = [];
  for (const c of cases) {
    const files = goodFiles(WS, HOME);
    files[path.join(WS, ...c.kind.rel.split('/'))] = c.text;
    for (const p of await check(c, memoryFs(files), WS, HOME)) failures.push(`${c.name}: ${p}`);
  }
  return failures;
}

describe('adversarial: malformed hook files of other agents', () => {
  it('every field of every format with every wrong type, and the wrong type at the top: a diagnostic at that place, the other sources load', async () => {
    const cases = wrongTypeCases();
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const failures = await runInMemory(cases);
    console.log(`[adversarial] malformed format files (wrong types): ${cases.length} cases, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 60_000);

  it('too many entries, over-long commands and nesting past the cap: bounded, a diagnostic, the other sources load', async () => {
    const cases = boundCases();
    const started = performance.now();
    const failures = await runInMemory(cases);
    console.log(
      `[adversarial] malformed format files (bounds): ${cases.length} cases, ${failures.length} failures, ${(performance.now() - started).toFixed(0)} ms`,
    );
    expect(failures).toEqual([]);
  }, 60_000);

  it('on disk: a file over the size cap, a FIFO, a directory or a link to /dev/zero in place of any format file is refused, nothing hangs', async () => {
    const pad = 'x'.repeat(MAX_CONFIG_FILE_BYTES + 10);
    const hugeText = (kind: FormatFileKind): string =>
      kind.syntax === 'script' ? `#!/bin/sh\n# ${pad}\n` : kind.syntax === 'toml' ? `pad = "${pad}"\n` : `{"pad": "${pad}"}`;
    const forms: Record<string, (kind: FormatFileKind, abs: string) => void> = {
      'over the size cap': (kind, abs) => writeFileSync(abs, hugeText(kind)),
      'a FIFO': (_kind, abs) => execFileSync('mkfifo', [abs]),
      'a directory': (_kind, abs) => mkdirSync(abs),
      'a link to /dev/zero': (_kind, abs) => symlinkSync('/dev/zero', abs),
    };
    const failures: string[] = [];
    let cases = 0;
    for (const kind of kinds)
      for (const [form, make] of Object.entries(forms)) {
        const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hw-format-disk-')));
        roots.push(root);
        const ws = path.join(root, 'ws');
        const home = path.join(root, 'home');
        for (const [file, text] of Object.entries(goodFiles(ws, home))) {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
        const abs = path.join(ws, ...kind.rel.split('/'));
        rmSync(abs);
        make(kind, abs);
        cases++;
        for (const p of await check({ name: `${kind.rel} ${form}`, kind, text: '', at: '' }, undefined, ws, home)) failures.push(`${kind.rel} ${form}: ${p}`);
      }
    console.log(`[adversarial] malformed format files (on disk): ${cases} cases, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 60_000);
});
