/**
 * The real server as a child process, as `npm start` runs it (`node --no-regexp-tier-up --import
 * tsx src/main.ts`), on a loopback port of its own, for tests that need a process to kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Spawned {
  base: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (for failure messages). */
  output: () => string;
  exited: () => boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop: (graceMs?: number) => Promise<void>;
  kill9: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function spawnServer(env: Record<string, string>): Promise<Spawned> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--no-regexp-tier-up', '--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let gone = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((gone = true), resolve())));
  const waitExit = async (ms: number) => Promise.race([exit.then(() => true), sleep(ms).then(() => false)]);
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => out,
    exited: () => gone,
    stop: async (graceMs = 15_000) => {
      if (gone) return;
      child.kill('SIGTERM');
      if (!(await waitExit(graceMs))) {
        child.kill('SIGKILL');
        await exit;
      }
    },
    kill9: async () => {
      if (gone) return;
      child.kill('SIGKILL');
      await exit;
    },
  };
}

/** Polls `url` until it answers 200; throws with the server's output when it exits or times out. */
export async function waitFor200(server: Spawned, path: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let last = 'no answer';
  while (Date.now() - started < timeoutMs) {
    if (server.exited()) throw new Error(`the server exited before ${path} answered 200:\n${server.output()}`);
    try {
      const r = await fetch(server.base + path, { signal: AbortSignal.timeout(2_000) });
      if (r.status === 200) return Date.now() - started;
      last = `${r.status} ${(await r.text()).slice(0, 300)}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(100);
  }
  throw new Error(`${path} did not answer 200 within ${timeoutMs} ms (last: ${last})\n${server.output()}`);
}
