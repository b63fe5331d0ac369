/**
 * Browser tests: e2e/tests/*.test.ts one file at a time with node's test runner, each driving
 * Debian's Chromium against the real server (built portal, fresh embedded database) of its own.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromium)) {
  const msg = `Chromium not found at ${chromium}: install it with 'apt-get install -y chromium' (or set CHROMIUM_PATH).`;
  if (process.env.CI) {
    console.error(msg);
    process.exit(1);
  }
  console.log(`SKIPPED browser tests. ${msg}`);
  process.exit(0);
}
// PORTAL_DIR (as the server reads it): a build of one's own, beside the usual one.
if (!existsSync(join(process.env.PORTAL_DIR ?? join(root, 'packages/web/dist'), 'index.html'))) {
  console.error('The portal is not built: run `npm run build` first (npm run test:e2e does).');
  process.exit(1);
}

const adminPassword = 'e2e-admin-password';

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

/** The real server on a free port over a fresh in-memory database, listening once this resolves. */
async function startServer(): Promise<{ baseUrl: string; stop(): void }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: 'memory://', ADMIN_PASSWORD: adminPassword, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () => server.kill('SIGTERM');
  // A busy machine (CI beside other jobs) can take over a minute to compile and migrate: wait, do not fail the file.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/app/version`)).ok) return { baseUrl, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error('server did not start within 180 s');
}

function runTests(file: string, baseUrl: string): Promise<number> {
  const runner = spawn(process.execPath, ['--import', 'tsx', '--test', file], {
    cwd: root,
    env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_ADMIN_PASSWORD: adminPassword, CHROMIUM_PATH: chromium },
    stdio: 'inherit',
  });
  return new Promise<number>((ok) => runner.on('exit', (c) => ok(c ?? 1)));
}

// Each file gets a server of its own: a test may count the sites or list rows it expects alone,
// and another file's records must not change what it sees.
const failed: string[] = [];
// `npx tsx e2e/run.ts opening-hours portal`: only the files whose names contain one of the words.
const only = process.argv.slice(2);
const files = readdirSync(join(root, 'e2e/tests'))
  .filter((f) => f.endsWith('.test.ts') && (!only.length || only.some((w) => f.includes(w))))
  .sort();
for (const file of files) {
  let server: { baseUrl: string; stop(): void } | undefined;
  try {
    server = await startServer();
    if ((await runTests(join('e2e/tests', file), server.baseUrl)) !== 0) failed.push(file);
  } catch (err) {
    console.error(err);
    failed.push(file);
  } finally {
    server?.stop();
  }
}
if (failed.length) console.error(`Browser tests failed in: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
