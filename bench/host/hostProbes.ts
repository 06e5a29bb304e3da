/**
 * What the host bench (hostBench.ts) measures with, inside the extension host: the memory the
 * host holds once settled, an empty webview's time to answer (the chat's floor), and V8's
 * profilers through the inspector.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import * as vscode from 'vscode';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: object) => void;
/**
 * The memory the host holds once V8 has given back what it only keeps for speed. Plain `gc()`
 * leaves the young generation (grown to 128 MiB in the long session) and V8's pool of freed
 * pages committed until its memory reducer runs, ~8 s later on an idle host: measured right after
 * plain `gc()`, RSS read 399 MiB, and 217 MiB once the reducer had run. The last-resort collection
 * is what V8 runs under memory pressure; it releases both at once.
 */
export function settledMemory(): NodeJS.MemoryUsage {
  for (let i = 0; i < 3; i++) gc();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return process.memoryUsage();
}

/** Opens a webview panel whose only script posts a message at once; the time until it arrives (NaN after 30 s). */
export async function emptyWebviewMs(): Promise<number> {
  const started = performance.now();
  const panel = vscode.window.createWebviewPanel(
    'hookwiseBenchEmpty',
    'empty',
    { viewColumn: vscode.ViewColumn.Active, preserveFocus: true },
    { enableScripts: true },
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    const answered = new Promise<number>((resolve) => {
      panel.webview.onDidReceiveMessage(() => resolve(performance.now() - started));
      timer = setTimeout(() => resolve(NaN), 30_000);
    });
    panel.webview.html = '<!DOCTYPE html><html><body><script>acquireVsCodeApi().postMessage("ready")</script></body></html>';
    return await answered;
  } finally {
    clearTimeout(timer);
    panel.dispose();
  }
}

/**
 * Starts a V8 profiler in this host through the inspector: `start` are the methods that enable and
 * start it, `stop` the one whose answer holds the profile; the returned function stops it.
 */
async function startInspectorProfile(start: readonly [string, object?][], stop: string): Promise<() => Promise<object>> {
  const inspector = await import('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  for (const [method, params] of start) await post(method, params);
  return async () => {
    const { profile } = (await post(stop)) as { profile: object };
    session.disconnect();
    return profile;
  };
}

/** V8's CPU profiler, sampling every `intervalUs` µs (V8's default: 1 ms). */
export const startProfile = (intervalUs = 1000): Promise<() => Promise<object>> =>
  startInspectorProfile([['Profiler.enable'], ['Profiler.setSamplingInterval', { interval: intervalUs }], ['Profiler.start']], 'Profiler.stop');

/** V8's sampling heap profiler: every allocation, collected or not. */
export const startHeapSampling = (): Promise<() => Promise<object>> =>
  startInspectorProfile(
    [
      ['HeapProfiler.enable'],
      ['HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }],
    ],
    'HeapProfiler.stopSampling',
  );
