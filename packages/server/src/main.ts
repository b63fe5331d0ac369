import { startServer } from './start.ts';

const { config, db, seeded, portalUrl } = await startServer();
if (seeded.generatedAdminPassword) {
  // Printed once, on the first start of an empty database; it is stored only as a hash.
  console.log(`\n  First start: user "admin" created with password: ${seeded.generatedAdminPassword}\n`);
}
console.log(`Portal: ${portalUrl}   API: http://localhost:${config.port}/api`);
if (db.kind === 'pglite') console.log('Database: embedded PGlite (for trying the portal and tests; use DATABASE_URL=postgres://… in operation)');
