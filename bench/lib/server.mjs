/**
 * The production build as a child process, as `npm run start:prod` runs it (`node
 * --no-regexp-tier-up dist/src/main.js`), with NODE_ENV=production, configured tokens, the rate
 * limit lifted and a DATA_DIR of its own. Loopback only.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TOKENS = {
  classics: 'bench-classics-token-0123456789',
  atlas: 'bench-atlas-key-0123456789abcdef',
  admin: 'bench-atlas-admin-key-0123456789',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in MB (VmRSS from /proc/<pid>/status). */
export function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return null;
  }
}

async function until200(url, child, started, timeoutMs) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${url} answered 200`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (r.status === 200) return Math.round(performance.now() - started);
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${url} not 200 after ${timeoutMs} ms`);
    await sleep(20);
  }
}

/**
 * Spawns the built server and waits for both ready endpoints. readyMs is spawn to the later of
 * the two (the atlas pack loads in the background once the server listens).
 */
export async function startServer({ root, packsDir = join(root, 'packs'), packId = 'design-history', timeoutMs = 600_000, env = {} }) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  const started = performance.now();
  // As `npm run start:prod` runs it (see src/main.ts for the flag).
  const child = spawn(process.execPath, ['--no-regexp-tier-up', join(root, 'dist/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PACKS_DIR: packsDir,
      ATLAS_PACK_ID: packId,
      CLASSICS_TOKENS: TOKENS.classics,
      ATLAS_API_KEYS: TOKENS.atlas,
      ATLAS_ADMIN_KEYS: TOKENS.admin,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      // Measure the service, not the overload shedding: a busy machine would trip it.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      for (let i = 0; i < 600 && child.exitCode === null && child.signalCode === null; i++) await sleep(25);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const classicsReadyMs = await until200(`${base}/api/classics/v1/ready`, child, started, timeoutMs);
    const atlasReadyMs = await until200(`${base}/api/atlas/v1/ready`, child, started, timeoutMs);
    return { base, pid: child.pid, classicsReadyMs, atlasReadyMs, readyMs: Math.max(classicsReadyMs, atlasReadyMs), rssMb: rssMb(child.pid), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
