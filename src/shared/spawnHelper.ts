import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import type { ProcessSpawner } from './leanLauncher';
import type { SpawnedProcess } from './processRun';
import { HELPER_SCRIPT } from './spawnHelperScript';

/**
 * A small long-lived Node process that starts hook and Bash shells for a big host process.
 *
 * Why: `fork` costs time in proportion to the parent's memory, and Node forks on its main
 * thread. In the VS Code extension host (hundreds of MiB) a spawn blocks it ~3× longer than a
 * small Node process does (bench/host: floor b vs floor a). The helper is small, so it forks
 * cheaply and off the host's thread.
 *
 * What stays in the host: everything {@link runShellCommand} does (output caps, timeouts and
 * aborts, the drain timer, killing the process group — the host signals the group itself,
 * it is the same user). The helper only spawns detached with pipes, forwards
 * stdin/stdout/stderr (each stream at most `cap + 1` bytes, the rest read and dropped) and
 * reports spawn, exit and close. When the host goes away (its pipe to the helper closes) the
 * helper SIGKILLs every group it started, then exits; so the watchdog is not told of these
 * groups (`groupGuarded`), and still finds their shells by the mark in their environment.
 *
 * Protocol: one JSON object per line each way, the lines of one turn of the event loop written at once. Host → helper `{op:'run',id,file,args,cwd,env,cap}`
 * (`env` names an environment sent before as `{op:'env',id,env}`; `{op:'dropEnv',id}` forgets one),
 * `{op:'stdin',id,data}` (base64), `{op:'end',id}`, `{op:'release',id}`. Helper → host
 * `{id,ev:'spawn',pid}`, `{id,ev:'out'|'err',data}` (base64), `{id,ev:'exit',code,signal}`,
 * `{id,ev:'close'}`, `{id,ev:'error',code,message}`.
 *
 * Warm shells (spawnHelperScript.ts; on unless `warmShells: false` or HOOKWISE_WARM_SHELLS=0):
 * a `/bin/sh -c` run may be served by a shell the helper forked after the previous run with the
 * same cwd and environment, so a hook's fork is not on its path. The protocol is unchanged.
 */

/** Environments the helper keeps (the newest first defined); a session's hooks use one. */
const KEPT_ENVIRONMENTS = 8;

type HelperEvent =
  | { id: number; ev: 'spawn'; pid: number }
  | { id: number; ev: 'out' | 'err'; data: string }
  | { id: number; ev: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { id: number; ev: 'close' }
  | { id: number; ev: 'error'; code?: string; message: string };

/** The host side of one shell started by the helper; looks like the part of a ChildProcess {@link runShellCommand} uses. */
class RemoteProcess extends EventEmitter implements SpawnedProcess {
  pid: number | undefined;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly stdin: Writable;
  /** The helper kills this shell's group when the host goes away. */
  readonly groupGuarded = true;

  constructor(
    private readonly id: number,
    private readonly post: (message: object) => void,
    private readonly forget: () => void,
  ) {
    super();
    this.stdin = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        post({ op: 'stdin', id, data: Buffer.from(chunk).toString('base64') });
        done();
      },
      final: (done) => {
        post({ op: 'end', id });
        done();
      },
    });
  }

  accept(event: HelperEvent): void {
    switch (event.ev) {
      case 'spawn':
        this.pid = event.pid;
        this.emit('spawn');
        break;
      case 'out':
        this.stdout.write(Buffer.from(event.data, 'base64'));
        break;
      case 'err':
        this.stderr.write(Buffer.from(event.data, 'base64'));
        break;
      case 'exit':
        this.emit('exit', event.code, event.signal);
        break;
      case 'close':
        this.stdout.end();
        this.stderr.end();
        // Let the stream ends reach their listeners first, as node's ChildProcess does.
        setImmediate(() => this.emit('close', null, null));
        break;
      case 'error':
        this.emit('error', Object.assign(new Error(event.message), { code: event.code }));
        break;
    }
  }

  /** The host is done with it (finished, perhaps with a straggler still holding the pipes). */
  release(): void {
    this.forget();
    this.post({ op: 'release', id: this.id });
  }

  /** The helper died: the shell's fate is unknown; report it as ended so the run finishes (its group is killed by the run). */
  lost(): void {
    this.stdout.end();
    this.stderr.end();
    if (this.pid === undefined) this.emit('error', Object.assign(new Error('the spawn helper exited'), { code: 'EHELPER' }));
    else {
      this.emit('exit', null, 'SIGKILL');
      setImmediate(() => this.emit('close', null, 'SIGKILL'));
    }
  }
}

/**
 * The environments the helper has, by content. A hook's environment is the host's whole one
 * (~8 KB in VS Code) and the same for every hook of a session: it goes to the helper once, and
 * runs name it by id, which also keys the warm shells.
 */
class HelperEnvironments {
  private readonly ids = new Map<string, number>();
  private readonly texts = new WeakMap<NodeJS.ProcessEnv, string>();
  private nextId = 1;

  constructor(private readonly post: (message: object) => void) {}

  /** The id of `env`, sent to the helper first when it does not have it. */
  idOf(env: NodeJS.ProcessEnv): number {
    // A frozen environment cannot change: its text is computed once.
    let text = this.texts.get(env);
    if (text === undefined) {
      text = JSON.stringify(env);
      if (Object.isFrozen(env)) this.texts.set(env, text);
    }
    let id = this.ids.get(text);
    if (id !== undefined) return id;
    id = this.nextId++;
    this.ids.set(text, id);
    this.post({ op: 'env', id, env });
    for (const [oldText, oldId] of this.ids) {
      if (this.ids.size <= KEPT_ENVIRONMENTS) break;
      this.ids.delete(oldText);
      this.post({ op: 'dropEnv', id: oldId });
    }
    return id;
  }
}

/** A running spawn helper. */
export interface SpawnHelper {
  /** The helper's pid (tests, diagnostics). */
  readonly pid: number;
  /** Pids of the shells it reported started and still runs (tests, diagnostics). */
  readonly runningPids: readonly number[];
  /** False once the helper died or was closed: callers spawn directly then. */
  readonly alive: boolean;
  /** The spawner to give the lean launcher (`createLeanLauncher({ spawner })`). */
  readonly spawner: ProcessSpawner;
  /** Ends the helper (it kills the groups it still runs). */
  close(): void;
}

/**
 * Starts the helper with `nodePath` (default: this process's own executable, run as Node —
 * `ELECTRON_RUN_AS_NODE` covers Electron hosts). Returns undefined where it cannot run
 * (Windows: no process groups; or the executable would not start). Never keeps the host's
 * event loop alive. `warmShells` (default: unless HOOKWISE_WARM_SHELLS=0) lets it pre-fork the
 * shells of repeated `/bin/sh -c` runs.
 */
export function startSpawnHelper(nodePath = process.execPath, options: { readonly warmShells?: boolean } = {}): SpawnHelper | undefined {
  if (process.platform === 'win32') return undefined;
  let child: ChildProcess;
  try {
    const warm = options.warmShells ?? process.env.HOOKWISE_WARM_SHELLS !== '0';
    child = spawn(nodePath, ['-e', HELPER_SCRIPT, ...(warm ? ['warm'] : [])], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1' },
      // Its own group: Ctrl+C in a terminal reaches the host, which then ends the helper.
      detached: true,
    });
  } catch {
    return undefined;
  }
  const { stdin, stdout, pid } = child;
  if (pid === undefined || !stdin || !stdout) return undefined;
  let alive = true;
  // Its stdin failed: it is dying; runs wait for its output to drain (die) to finish.
  let broken = false;
  let nextId = 1;
  const running = new Map<number, RemoteProcess>();
  // The pipe from the helper holds the event loop only while a run waits on it.
  const pipe = stdout as unknown as { ref?: () => void; unref?: () => void };
  const track = (id: number, remote: RemoteProcess | undefined): void => {
    if (remote) running.set(id, remote);
    else running.delete(id);
    if (running.size === 0) pipe.unref?.();
    else pipe.ref?.();
  };
  // Messages of one turn of the loop (a run, its stdin and its end; five hooks started at
  // once) go out as one write: one wake-up of the helper instead of one per message.
  let outbox = '';
  const flush = (): void => {
    const text = outbox;
    outbox = '';
    if (alive && !broken && text !== '') stdin.write(text);
  };
  const post = (message: object): void => {
    if (!alive) return;
    if (outbox === '') setImmediate(flush);
    outbox += `${JSON.stringify(message)}\n`;
  };
  const die = (): void => {
    if (!alive) return;
    alive = false;
    const lost = [...running.values()];
    running.clear();
    pipe.unref?.();
    for (const remote of lost) remote.lost();
  };
  // Only once its output is drained ('close', not 'exit'): a spawn it reported just before it
  // died must still reach its run, or that run would not know the group to kill.
  stdin.on('error', () => {
    broken = true;
  });
  child.on('error', die);
  child.on('close', die);
  let buffer = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (text: string) => {
    buffer += text;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const event = JSON.parse(buffer.slice(0, i)) as HelperEvent;
      buffer = buffer.slice(i + 1);
      const remote = running.get(event.id);
      if (!remote) continue;
      if (event.ev === 'close' || (event.ev === 'error' && remote.pid === undefined)) track(event.id, undefined);
      remote.accept(event);
    }
  });
  // Unreferenced while idle; each run holds the loop through its own streams and promise.
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  pipe.unref?.();

  const environments = new HelperEnvironments(post);
  const spawner: ProcessSpawner = (file, args, options) => {
    const id = nextId++;
    const remote = new RemoteProcess(id, post, () => track(id, undefined));
    track(id, remote);
    post({ op: 'run', id, file, args, cwd: options.cwd, env: environments.idOf(options.env), cap: options.maxOutputBytes });
    return remote;
  };
  return {
    pid,
    get alive() {
      return alive && !broken;
    },
    get runningPids() {
      return [...running.values()].flatMap((remote) => (remote.pid === undefined ? [] : [remote.pid]));
    },
    spawner: (file, args, options) => (alive && !broken ? spawner(file, args, options) : undefined),
    close() {
      if (!alive) return;
      flush();
      alive = false;
      stdin.end();
      const lost = [...running.values()];
      running.clear();
      pipe.unref?.();
      for (const remote of lost) remote.lost();
    },
  };
}
