// The extension bundle's size (target ≤ 1.2 MB minified), as shipped: dist/extension.js from
// `node esbuild.mjs --production` (npm run bench builds it first). Then a production build of
// the same entry with esbuild's metafile says which packages the bytes come from, and the same
// build plus the MCP SDK's client and its stdio and Streamable HTTP transports (what an MCP
// client bundles) says what the SDK adds. Measures only.
import * as esbuild from 'esbuild';
import { statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../test/host/install.mjs';
import { extensionConfig } from '../esbuild.mjs';

const TARGET_KIB = 1200 * (1000 / 1024); // 1.2 MB = 1,200,000 bytes

/** The extension's production options, from esbuild.mjs; analysed in memory. */
const extensionOptions = {
  ...extensionConfig,
  plugins: extensionConfig.plugins.filter((p) => p.name !== 'esbuild-problem-matcher'),
  absWorkingDir: REPO_ROOT,
  minify: true,
  sourcemap: false,
  write: false,
  metafile: true,
};

/** Bytes in the output per package (node_modules/<name>) or `src` for our own code. */
function byPackage(metafile) {
  const output = Object.values(metafile.outputs)[0];
  const sizes = new Map();
  for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    const key = m ? m[1] : file.startsWith('src/') ? `src/${file.split('/')[1]}` : file;
    sizes.set(key, (sizes.get(key) ?? 0) + bytesInOutput);
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

const kib = (bytes) => bytes / 1024;

async function main() {
  const shipped = statSync(path.join(REPO_ROOT, 'dist/extension.js')).size;
  const plain = await esbuild.build({ ...extensionOptions, outfile: 'out/bench/extension.min.js' });
  const noEntry = { ...extensionOptions };
  delete noEntry.entryPoints;
  const withMcp = await esbuild.build({
    ...noEntry,
    stdin: {
      contents: [
        "export * from './src/extension';",
        "export { Client } from '@modelcontextprotocol/sdk/client/index.js';",
        "export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';",
        "export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
      ].join('\n'),
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    outfile: 'out/bench/extensionWithMcp.min.js',
  });
  const plainBytes = plain.outputFiles[0].contents.length;
  const mcpBytes = withMcp.outputFiles[0].contents.length;
  const ok = kib(shipped) <= TARGET_KIB;
  console.log(`extension bundle, minified:`);
  console.log(
    `  dist/extension.js as shipped          ${kib(shipped).toFixed(0).padStart(6)} KiB   target ≤ 1.2 MB (${TARGET_KIB.toFixed(0)} KiB)  ${ok ? 'OK' : 'MISSED'}`,
  );
  console.log(`  with the MCP SDK client + transports  ${kib(mcpBytes).toFixed(0).padStart(6)} KiB   (+${kib(mcpBytes - plainBytes).toFixed(0)} KiB)`);
  console.log(
    '  largest parts (KiB): ' +
      byPackage(plain.metafile)
        .slice(0, 10)
        .map(([k, v]) => `${k} ${kib(v).toFixed(0)}`)
        .join(', '),
  );
  const mcpOnly = byPackage(withMcp.metafile).filter(([k]) => !byPackage(plain.metafile).some(([p]) => p === k));
  console.log(
    '  what the MCP SDK brings (KiB): ' +
      mcpOnly
        .slice(0, 8)
        .map(([k, v]) => `${k} ${kib(v).toFixed(0)}`)
        .join(', '),
  );
  console.log(`@bench-json ${JSON.stringify({ bundleKiB: Math.round(kib(shipped)), bundleWithMcpKiB: Math.round(kib(mcpBytes)) })}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
