import path from 'node:path';

/**
 * Where VS Code keeps the ripgrep it ships, under `vscode.env.appRoot`, newest layout first:
 * `@vscode/ripgrep-universal/bin/<platform>-<arch>/rg` (VS Code 1.139 / code-server 4.139),
 * then `@vscode/ripgrep/bin/rg` (earlier releases); each in `node_modules.asar.unpacked`
 * (packaged desktop builds) and `node_modules` (code-server, dev builds). The first that
 * `rg --version` accepts is used (RipgrepLocator); none = `rg` on PATH, then the fallback.
 */
export function shippedRipgrepCandidates(appRoot: string, platform: NodeJS.Platform = process.platform, arch: string = process.arch): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  const out: string[] = [];
  for (const modules of ['node_modules.asar.unpacked', 'node_modules']) {
    out.push(path.join(appRoot, modules, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, exe));
    out.push(path.join(appRoot, modules, '@vscode', 'ripgrep', 'bin', exe));
  }
  return out;
}
