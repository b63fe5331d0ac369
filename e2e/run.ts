/**
 * Browser tests: starts the real server (built portal, fresh embedded database) on a free port,
 * then runs e2e/tests/*.test.ts with node's test runner, each driving Debian's Chromium.
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
if (!existsSync(join(root, 'packages/web/dist/index.html'))) {
  console.error('The portal is not built: run `npm run build` first (npm run test:e2e does).');
  process.exit(1);
}

const port = await new Promise<number>((ok) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => ok(port));
  });
});
const baseUrl = `http://127.0.0.1:${port}`;
const adminPassword = 'e2e-admin-password';

const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: 'memory://', ADMIN_PASSWORD: adminPassword, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});

async function waitForServer(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/app/version`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start within 60 s');
}

let code = 1;
try {
  await waitForServer();
  const tests = readdirSync(join(root, 'e2e/tests')).filter((f) => f.endsWith('.test.ts')).map((f) => join('e2e/tests', f));
  const runner = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...tests], {
    cwd: root,
    env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_ADMIN_PASSWORD: adminPassword, CHROMIUM_PATH: chromium },
    stdio: 'inherit',
  });
  code = await new Promise<number>((ok) => runner.on('exit', (c) => ok(c ?? 1)));
} catch (err) {
  console.error(err);
} finally {
  server.kill('SIGTERM');
}
process.exit(code);
