import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readBoundedTextFile } from '../configFiles/configFileSystem';
import { formatConfigDiagnostic } from '../configFiles/configDiagnostic';
import { readFormatFileText } from '../hooks/formats/formatFileRead';
import { locateFormatFile } from '../hooks/formats/formatFileLocate';
import { registeredHookFormats } from '../hooks/formats/formatRegistry';
import { convertFormatHooks } from '../hooks/formats/hookConversion';
import { mergeConvertedHooks } from '../hooks/formats/hookConversionMerge';
import { CONVERSION_RULE, conversionText, settingsFragment } from '../hooks/formats/hookConversionReport';
import { thrownMessage } from '../shared/describeThrown';
import type { CliIo } from './runCli';

/** What `hooks convert` needs from the `hooks` command line. */
export interface ConvertOptions {
  readonly cwd: string;
  readonly homeDir: string;
  readonly write: boolean;
  readonly json: boolean;
}

/**
 * `hookwise hooks convert <file> [--write]`: prints the `.claude/settings.json` entries the hooks of
 * another agent's file convert to exactly, and what does not convert and why
 * (src/hooks/formats/hookConversion.ts). `--write` merges them into `.claude/settings.json` of the
 * cwd (a user file's into `~/.claude/settings.json`) with JSONC edits that keep comments, never
 * adding an identical entry twice. Returns the exit code: 0 done, 1 the file cannot be read or
 * written, 2 not a hooks file of another agent.
 */
export async function runConvert(file: string, o: ConvertOptions, io: CliIo): Promise<number> {
  const located = locateFormatFile(path.resolve(o.cwd, file), o.cwd, o.homeDir);
  if (located === undefined) {
    const places = registeredHookFormats()
      .flatMap((a) => a.locations.map((l) => `${a.displayName} ${l.scope === 'user' ? '~/' : ''}${l.path}`))
      .join(', ');
    io.stderr(`hookwise: ${file} is not a hooks file another agent reads (relative to --cwd ${o.cwd} or the home directory): ${places}\n`);
    return 2;
  }
  let text: string | undefined;
  try {
    text = await readBoundedTextFile(located.file);
  } catch (error) {
    io.stderr(`hookwise: cannot read ${located.file}: ${thrownMessage(error)}\n`);
    return 1;
  }
  if (text === undefined) {
    io.stderr(`hookwise: ${located.file} does not exist\n`);
    return 1;
  }
  const read = readFormatFileText(located.format, text, located);
  for (const d of read.diagnostics) if (d.severity === 'error') io.stderr(`hookwise: ${formatConfigDiagnostic(d)}\n`);
  const conversion = convertFormatHooks({ ...read, displayFile: located.displayFile, text });
  const target = located.scope === 'user' ? path.join(o.homeDir, '.claude', 'settings.json') : path.join(o.cwd, '.claude', 'settings.json');
  let written: { added: number; present: number } | undefined;
  if (o.write && conversion.converted.length > 0) {
    try {
      const before = (await readBoundedTextFile(target)) ?? '';
      const merged = mergeConvertedHooks(before, conversion.converted);
      if (merged.added.length > 0) {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, merged.text, 'utf8');
      }
      written = { added: merged.added.length, present: merged.present.length };
    } catch (error) {
      io.stderr(`hookwise: cannot write ${target}: ${thrownMessage(error)}\n`);
      return 1;
    }
  }
  if (o.json) {
    const out = {
      format: conversion.format,
      file: located.displayFile,
      settings: settingsFragment(conversion.converted),
      converted: conversion.converted,
      notConverted: conversion.notConverted,
      caveats: conversion.caveats,
      rule: CONVERSION_RULE,
      ...(written !== undefined ? { written: { file: target, ...written } } : {}),
    };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  io.stdout(conversionText(conversion));
  if (written !== undefined)
    io.stdout(
      `Wrote ${written.added} ${written.added === 1 ? 'entry' : 'entries'} to ${target}${written.present > 0 ? ` (${written.present} already there)` : ''}.\n`,
    );
  else if (o.write) io.stdout(`Nothing to write to ${target}.\n`);
  else if (conversion.converted.length > 0) io.stdout(`Run again with --write to add them to ${target}.\n`);
  return 0;
}
