/**
 * Entry point the extension host loads through `extensionTestsPath` (code-server payload or
 * @vscode/test-electron). It runs the mocha suite (tdd UI) over the compiled
 * out/test/integration/*.test.js next to it, logs to the console, and writes a JSON report
 * to the file named by HOOKWISE_TEST_RESULTS: in code-server the page never closes by itself,
 * so the runner outside waits for that file instead of an exit code.
 */
import Mocha from 'mocha';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** The report the runner (test/host/runIntegration.mjs) reads. */
export interface IntegrationReport {
  passed: number;
  failed: number;
  pending: number;
  tests: { title: string; state: 'passed' | 'failed' | 'pending'; durationMs: number; error?: string }[];
  host: { appName: string; appHost: string; vscodeVersion: string; node: string; pid: number };
  /** Set when the suite could not even load (syntax error, missing file). */
  fatal?: string;
}

function writeReport(report: IntegrationReport): void {
  const file = process.env.HOOKWISE_TEST_RESULTS;
  if (!file) {
    console.error('[hookwise-tests] HOOKWISE_TEST_RESULTS is not set: the runner will not see these results');
    return;
  }
  // Write then rename, so the runner never reads half a file.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(report, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

export async function run(): Promise<void> {
  const report: IntegrationReport = {
    passed: 0,
    failed: 0,
    pending: 0,
    tests: [],
    host: { appName: vscode.env.appName, appHost: vscode.env.appHost, vscodeVersion: vscode.version, node: process.version, pid: process.pid },
  };
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 20_000, reporter: 'spec' });
  const grep = process.env.HOOKWISE_TEST_GREP;
  if (grep) mocha.grep(grep);
  try {
    // Each host runs its own files: `*.untrusted.test.js` in the untrusted host opened on a
    // repository's .code-workspace (HOOKWISE_TEST_HOST=untrusted), every other file in the folder host.
    const untrustedHost = process.env.HOOKWISE_TEST_HOST === 'untrusted';
    const files = fs
      .readdirSync(__dirname)
      .filter((f) => f.endsWith('.test.js') && f.endsWith('.untrusted.test.js') === untrustedHost)
      .sort();
    if (files.length === 0) throw new Error(`no *.test.js files for this host in ${__dirname}`);
    for (const f of files) mocha.addFile(path.join(__dirname, f));
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', (t) => {
        report.passed++;
        report.tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration ?? 0 });
      });
      runner.on('fail', (t, err: Error) => {
        report.failed++;
        report.tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration ?? 0, error: err?.stack ?? String(err) });
      });
      runner.on('pending', (t) => {
        report.pending++;
        report.tests.push({ title: t.fullTitle(), state: 'pending', durationMs: 0 });
      });
    });
  } catch (e) {
    report.fatal = e instanceof Error ? (e.stack ?? e.message) : String(e);
    report.failed++;
  }
  console.log(`[hookwise-tests] ${report.passed} passed, ${report.failed} failed`);
  writeReport(report);
  // Under test-electron a rejected run() is how failure reaches the exit code.
  if (report.failed > 0) throw new Error(`${report.failed} integration test(s) failed`);
}
