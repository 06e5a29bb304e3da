// @ts-check
/**
 * The runner's side of HOOKWISE_BENCH_BROWSER_TRACE=<dir> (see bench/host/browserTraceSessions.ts):
 * traces the workbench page with Chrome's tracing while the host bench runs one session, writes
 * the trace to <dir>/<label>.trace.json (open it in chrome://tracing or Perfetto) and prints, per
 * Bash call, the CPU time of each browser thread and the frames the page painted.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.animations'].join(',');

/**
 * Answers the host's start and end signals: call `poll()` often (it reads the signal file).
 * @param {import('playwright-core').Page} page
 * @param {string} signalFile the `.trace` file beside the results
 * @param {string} dir where traces go
 * @param {(line: string) => void} say
 */
export function browserTracer(page, signalFile, dir, say) {
  mkdirSync(dir, { recursive: true });
  /** @type {{ label: string, cdp: import('playwright-core').CDPSession, events: any[], done: Promise<unknown> } | undefined} */
  let tracing;
  let answered = '';
  return {
    async poll() {
      const text = existsSync(signalFile) ? readFileSync(signalFile, 'utf8') : '';
      if (text === answered || text === '') return;
      const [what, label = '', calls = '1'] = text.split(' ');
      if (what === 'start' && !tracing) {
        const cdp = await page.context().newCDPSession(page);
        /** @type {any[]} */
        const events = [];
        cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
        const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
        await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
        tracing = { label, cdp, events, done };
      } else if (what === 'end' && tracing) {
        const { cdp, events, done } = tracing;
        tracing = undefined;
        await cdp.send('Tracing.end');
        await done;
        await cdp.detach();
        const file = path.join(dir, `${label}.trace.json`);
        writeFileSync(file, JSON.stringify(events));
        say(`browser trace, ${label}: ${summarize(events, Number(calls))} (${file})`);
      }
      answered = text;
      writeFileSync(`${signalFile}.ack`, text);
    },
  };
}

/**
 * Per call: each thread's CPU time in its top-level tasks (thread time, so waiting for a core
 * does not count), and the page's paints.
 * @param {any[]} events @param {number} calls
 */
function summarize(events, calls) {
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  /** @type {Map<string, number>} */
  const cpu = new Map();
  let paints = 0;
  for (const e of events) {
    if (e.name === 'Paint') paints++;
    if (e.name !== 'ThreadControllerImpl::RunTask' || typeof e.tdur !== 'number') continue;
    const thread = names.get(`${e.pid}:${e.tid}`) ?? `thread ${e.tid}`;
    cpu.set(thread, (cpu.get(thread) ?? 0) + e.tdur / 1000);
  }
  const busiest = [...cpu].sort((a, b) => b[1] - a[1]).slice(0, 4);
  return `${busiest.map(([thread, ms]) => `${thread} ${(ms / calls).toFixed(1)} ms`).join(', ')}, ${(paints / calls).toFixed(1)} paints per call`;
}
