/* global window, document, MessageEvent, requestAnimationFrame, performance -- page.evaluate bodies run in the page */
// Chat at scale, in Chromium (the engine of VS Code's webviews): the built webview bundle
// (dist/media/chat.js, as `npm run bench` builds it: minified), the chat's stylesheet and the
// chat view's own markup (taken from src/vscode/chat/chatHtml.ts, so it cannot drift)
// receive a conversation of CARDS tool calls the way the extension posts them (`agentEvent`
// messages: toolCall, toolStatus running, toolStatus done). Measured:
//  - the time to append one event (handler + the layout it forces), median over the last 100
//    cards (target ≤ 5 ms), next to the first 100;
//  - the webview's JS heap and DOM size after a garbage collection;
//  - scrolling: frame time while jumping around the finished conversation.
// Measures only. Needs Chromium (test/host/install.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../test/host/codeServer.mjs';
import { REPO_ROOT } from '../test/host/install.mjs';

const CARDS = Number(process.env.HOOKWISE_BENCH_CARDS ?? 1000);

function pageHtml() {
  const source = readFileSync(path.join(REPO_ROOT, 'src/vscode/chat/chatHtml.ts'), 'utf8');
  const body = /<body>([\s\S]*?)<script nonce/.exec(source)?.[1];
  if (!body) throw new Error('could not find the chat markup in src/vscode/chat/chatHtml.ts');
  const css = readFileSync(path.join(REPO_ROOT, 'media/chat.css'), 'utf8');
  const script = readFileSync(path.join(REPO_ROOT, 'dist/media/chat.js'), 'utf8');
  // The webview host's API, as far as the chat uses it.
  const stub = 'window.acquireVsCodeApi = () => ({ postMessage() {}, getState() { return undefined; }, setState() {} });';
  const safe = (js) => js.replace(/<\/script/gi, '<\\/script');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><style>${css}</style></head><body>${body}<script>${stub}</script><script>${safe(script)}</script></body></html>`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

async function main() {
  const browser = await launchChromium({ viewport: { width: 500, height: 900 } });
  try {
    const { page } = browser;
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setContent(pageHtml());
    const perEvent = await page.evaluate(async (cards) => {
      const post = (event) => window.dispatchEvent(new MessageEvent('message', { data: { type: 'agentEvent', event } }));
      const messages = document.getElementById('messages');
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
      post({ type: 'userPrompt', text: 'run the checks' });
      post({ type: 'runStarted', agent: { agentId: 'main', parentAgentId: null, agentType: 'main' } });
      const times = [];
      for (let i = 0; i < cards; i++) {
        const id = `toolu_${i}`;
        const input = JSON.stringify({ command: `npm test -- --shard ${i}` }, null, 2);
        const events = [
          { type: 'toolCall', agentId: 'main', toolUseId: id, toolName: 'Bash', summary: `npm test -- --shard ${i}`, input },
          { type: 'toolStatus', agentId: 'main', toolUseId: id, status: 'running' },
          {
            type: 'toolStatus',
            agentId: 'main',
            toolUseId: id,
            status: 'done',
            result: `PASS shard ${i}\n${'ok '.repeat(40)}\n`,
            verdict: 'Allowed by PreToolUse hook',
          },
        ];
        for (const event of events) {
          const t = performance.now();
          post(event);
          void messages.scrollHeight; // the layout the append causes, paid now rather than in the next frame
          times.push(performance.now() - t);
        }
        if (i % 10 === 9) await frame();
      }
      return times;
    }, CARDS);
    if (errors.length) throw new Error(`the chat threw: ${errors.join('; ')}`);
    const cardCount = await page.evaluate(() => document.querySelectorAll('#messages > *').length);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
    const frames = await page.evaluate(async () => {
      const messages = document.getElementById('messages');
      const out = [];
      let last = await new Promise((r) => requestAnimationFrame(r));
      for (let i = 0; i < 60; i++) {
        messages.scrollTop = ((i * 7919) % 100) * 0.01 * messages.scrollHeight;
        const now = await new Promise((r) => requestAnimationFrame(r));
        out.push(now - last);
        last = now;
      }
      return out;
    });
    const first = perEvent.slice(0, 300);
    const last = perEvent.slice(-300);
    const chatAppendMs = median(last);
    console.log(`chat webview in Chromium, ${CARDS} tool cards (${cardCount} elements in the conversation):`);
    console.log(`  append one event, first 100 cards (median)   ${median(first).toFixed(2).padStart(8)} ms`);
    console.log(
      `  append one event, last 100 cards (median)    ${chatAppendMs.toFixed(2).padStart(8)} ms   target ≤ 5 ms  ${chatAppendMs <= 5 ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `  append one event, last 100 cards (worst)     ${Math.max(...last)
        .toFixed(2)
        .padStart(8)} ms`,
    );
    console.log(`  webview JS heap after GC                     ${(heap.usedSize / 1024 / 1024).toFixed(1).padStart(8)} MiB, ${dom} DOM elements`);
    console.log(`  scrolling: frame time median / worst         ${median(frames).toFixed(1).padStart(8)} / ${Math.max(...frames).toFixed(1)} ms`);
    console.log(`@bench-json ${JSON.stringify({ chatAppendMs: Math.round(chatAppendMs * 100) / 100 })}`);
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
