import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seed } from './db/seed.ts';
import { buildApp } from './app.ts';

const config = loadConfig();
const db = await openDatabase(config.databaseUrl);
const seeded = await seed(db, config.adminPassword);
const app = await buildApp(config, db);
if (seeded.generatedAdminPassword) {
  // Printed once, on the first start of an empty database; it is stored only as a hash.
  console.log(`\n  First start: user "admin" created with password: ${seeded.generatedAdminPassword}\n`);
}
await app.listen({ port: config.port, host: config.host });
console.log(`Portal: http://localhost:${config.port}${config.portalPath}   API: http://localhost:${config.port}/api`);
if (db.kind === 'pglite') console.log('Database: embedded PGlite (for trying the portal and tests; use DATABASE_URL=postgres://… in operation)');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    await db.close();
    process.exit(0);
  });
}
