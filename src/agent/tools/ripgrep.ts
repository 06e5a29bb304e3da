import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { runProgram } from '../../shared/processRunner';
import type { ProcessRunResult } from '../../shared/processLauncher';

/**
 * Where Grep and Glob find ripgrep. `candidates` are tried in order (the host's shipped `rg`,
 * a path the user set); `searchPath` adds `rg` on PATH last. `false` (or no usable binary)
 * means the JavaScript fallback. `onDiagnostic` hears, once, why ripgrep is not used.
 */
export interface RipgrepOptions {
  readonly candidates?: readonly (string | undefined)[];
  readonly searchPath?: boolean;
  readonly onDiagnostic?: (message: string) => void;
}

/** A usable ripgrep: its path and version line. */
export interface Ripgrep {
  readonly path: string;
  readonly version: string;
}

/** Output cap of one rg run (Claude Code buffers up to 20 MB); past it the result says it is cut. */
export const RG_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * Resolves and probes ripgrep once per options object (`rg --version` must succeed), so a
 * missing or broken binary costs one probe and one diagnostic, not one per call. Resolves
 * undefined when the fallback must run. Never rejects.
 */
export class RipgrepLocator {
  private found: Promise<Ripgrep | undefined> | undefined;

  constructor(private readonly options: RipgrepOptions | false = {}) {}

  /** The ripgrep to run, or undefined for the fallback. */
  get(): Promise<Ripgrep | undefined> {
    this.found ??= this.locate();
    return this.found;
  }

  private async locate(): Promise<Ripgrep | undefined> {
    if (this.options === false) return undefined;
    const tried: string[] = [];
    const candidates = [...(this.options.candidates ?? []).filter((c): c is string => typeof c === 'string' && c !== '')];
    if (this.options.searchPath !== false) {
      const onPath = findOnPath(process.platform === 'win32' ? 'rg.exe' : 'rg');
      if (onPath) candidates.push(onPath);
    }
    for (const candidate of candidates) {
      const probe = await runProgram(candidate, ['--version'], { cwd: process.cwd(), maxOutputBytes: 4096, signal: AbortSignal.timeout(5000) });
      const version = probe.stdout.split('\n')[0] ?? '';
      if (probe.exitCode === 0 && /^ripgrep \d/.test(version)) return { path: candidate, version };
      tried.push(`${candidate} (${probe.spawnError ?? (probe.stderr.trim().split('\n')[0] || `exit ${probe.exitCode ?? probe.signal ?? '?'}`)})`);
    }
    this.options.onDiagnostic?.(
      tried.length === 0
        ? 'Hookwise: ripgrep (rg) was not found; Grep and Glob use the slower JavaScript search.'
        : `Hookwise: ripgrep is not usable (${tried.join('; ')}); Grep and Glob use the slower JavaScript search.`,
    );
    return undefined;
  }
}

/** The first executable `name` on PATH, or undefined. */
export function findOnPath(name: string, envPath: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** How one rg run ended, beyond its output. */
export interface RgRun {
  readonly result: ProcessRunResult;
  /** The time cap stopped it. */
  readonly timedOut: boolean;
  /** Stop (the caller's signal) stopped it. */
  readonly aborted: boolean;
}

/**
 * Runs rg in its own process group through the repo's process runner: output capped at
 * {@link RG_MAX_OUTPUT_BYTES}, the group killed on Stop or after `timeoutMs`, and killed
 * after exit too, so no rg outlives the call. `--no-config` keeps RIPGREP_CONFIG_PATH from
 * adding flags such as --follow. Never rejects.
 */
export async function runRg(
  rg: Ripgrep,
  args: readonly string[],
  options: { readonly cwd: string; readonly signal: AbortSignal; readonly timeoutMs: number },
): Promise<RgRun> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout.signal]);
  try {
    const result = await runProgram(rg.path, ['--no-config', ...args], {
      cwd: options.cwd,
      signal,
      maxOutputBytes: RG_MAX_OUTPUT_BYTES,
      killGraceMs: 0,
      env: { ...process.env, RIPGREP_CONFIG_PATH: '' },
    });
    return { result, aborted: options.signal.aborted, timedOut: timeout.signal.aborted && !options.signal.aborted };
  } finally {
    clearTimeout(timer);
  }
}

/** rg's error text for the model: its stderr, bounded. */
export function rgErrorText(result: ProcessRunResult): string {
  const text = result.stderr.trim();
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

let defaultLocator: RipgrepLocator | undefined;

/**
 * The locator a tool uses: the one given; a new one for options; for none, one shared by the
 * process (`rg` on PATH, probed once, its diagnostic written once to the console).
 */
export function sharedLocator(option: RipgrepOptions | false | RipgrepLocator | undefined): RipgrepLocator {
  if (option instanceof RipgrepLocator) return option;
  if (option === undefined) return (defaultLocator ??= new RipgrepLocator({ onDiagnostic: (message) => console.warn(message) }));
  return new RipgrepLocator(option);
}
