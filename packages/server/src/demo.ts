/**
 * `npm run demo`: the real server (as main.ts starts it) plus demo sites, zones, chargers and an
 * RFID card, and a fleet of simulated chargers charging against the server's own OCPP endpoint,
 * so a newcomer sees live data in the portal. The demo rows are inserted idempotently: running
 * the demo again on the same database reuses them.
 */
import { runFleet } from '@ev/simulator';
import type { Sql } from './db/client.ts';
import { startServer } from './start.ts';

const SITES = [
  {
    address: 'Harbour View Car Park, 1 Harbour Road, Wan Chai, Hong Kong',
    address_chi: '香港灣仔港灣道1號海景停車場',
    address_chs: '香港湾仔港湾道1号海景停车场',
    gps: [22.2799, 114.1730],
    zone: 'B1 充電區',
    limitA: 200,
    chargers: 6,
  },
  {
    address: 'Sunrise Mall, 8 Nathan Road, Tsim Sha Tsui, Kowloon',
    address_chi: '九龍尖沙咀彌敦道8號旭日商場',
    address_chs: '九龙尖沙咀弥敦道8号旭日商场',
    gps: [22.2963, 114.1722],
    zone: 'L3 停車場',
    limitA: 125,
    chargers: 4,
  },
];
const PREFIX = 'DEMO-';
const ID_TAGS = ['DEMO0001', 'DEMO0002', 'DEMO0003', 'DEMO0004', 'DEMO0005'];
/** Odd-numbered demo chargers have two connectors, even ones one. */
const connectorsOf = (n: number) => (n % 2 === 1 ? 2 : 1);

/** Inserts what is missing of the demo data; returns the number of demo chargers. */
async function insertDemoData(sql: Sql): Promise<number> {
  let n = 0;
  for (const site of SITES) {
    await sql.query(
      `INSERT INTO cp_locs (address, address_chi, address_chs, gps_lat, gps_lang, enable_flag)
       VALUES ($1, $2, $3, $4, $5, 1)
       ON CONFLICT (address) WHERE deleted_at IS NULL DO NOTHING`,
      [site.address, site.address_chi, site.address_chs, site.gps[0], site.gps[1]],
    );
    const [{ loc_id }] = await sql.query<{ loc_id: number }>(
      `SELECT loc_id FROM cp_locs WHERE address = $1 AND deleted_at IS NULL`, [site.address]);
    await sql.query(
      `INSERT INTO cp_zones (loc_id, name_chi, max_physical_current_limit)
       SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM cp_zones WHERE loc_id = $1 AND name_chi = $2)`,
      [loc_id, site.zone, site.limitA],
    );
    const [{ zone_id }] = await sql.query<{ zone_id: number }>(
      `SELECT zone_id FROM cp_zones WHERE loc_id = $1 AND name_chi = $2 ORDER BY zone_id LIMIT 1`, [loc_id, site.zone]);
    for (let i = 0; i < site.chargers; i++) {
      n++;
      const cpNo = `${PREFIX}${String(n).padStart(3, '0')}`;
      await sql.query(
        `INSERT INTO cps (cp_no, name, name_chi, loc_id, zone_id, enable_flag, max_power_output, heartbeat_interval)
         VALUES ($1, $2, $3, $4, $5, 1, 32, 60)
         ON CONFLICT (cp_no) WHERE deleted_at IS NULL DO NOTHING`,
        [cpNo, `Demo charger ${n}`, `示範充電樁 ${n}`, loc_id, zone_id],
      );
      await sql.query(
        `INSERT INTO cp_connectors (cp_id, connector_id, connector_name)
         SELECT cp_id, c, chr(64 + c) FROM cps, generate_series(1, $2::int) AS c
          WHERE cp_no = $1 AND deleted_at IS NULL
         ON CONFLICT (cp_id, connector_id) DO NOTHING`,
        [cpNo, connectorsOf(n)],
      );
    }
  }
  await sql.query(
    `INSERT INTO auth_card (name, rfid_cards, active)
     SELECT 'Demo cards', $1, 1 WHERE NOT EXISTS (SELECT 1 FROM auth_card WHERE name = 'Demo cards')`,
    [ID_TAGS.join(',')],
  );
  return n;
}

let chargers = 0;
const { config, db, app, seeded, portalUrl, onStop } = await startServer(async (database) => {
  chargers = await database.tx(insertDemoData);
});

const fleet = runFleet({
  url: `ws://127.0.0.1:${config.port}/ocpp`,
  count: chargers,
  prefix: PREFIX,
  connectors: (i) => connectorsOf(i + 1),
  scenario: 'charge-loop',
  idTags: ID_TAGS,
  meterIntervalSec: 10,
  idleSec: [10, 90],
  chargeSec: [60, 300],
});
await fleet.ready;

console.log(`\n  Demo: ${chargers} simulated chargers (${PREFIX}001…) are charging at 2 sites.`);
console.log(`  Portal: ${portalUrl}`);
if (seeded.generatedAdminPassword) {
  console.log(`  Sign in as "admin" with password: ${seeded.generatedAdminPassword} (printed once; stored only as a hash)`);
} else {
  console.log('  Sign in as "admin" with the password printed at the first start (or the ADMIN_PASSWORD it was started with).');
}
if (db.kind === 'pglite') console.log(`  Database: embedded PGlite in ${config.databaseUrl} (for trying the portal; use DATABASE_URL=postgres://… in operation)`);
console.log('  Ctrl-C stops the chargers (ending their sessions) and the server.\n');

const status = setInterval(() => {
  const s = fleet.stats();
  app.log.info({ connected: s.connected, charging: s.charging, sessions: s.sessionsCompleted, sent: s.messagesSent, errors: s.errors }, 'demo fleet');
}, 60_000);

onStop(async () => {
  clearInterval(status);
  await fleet.stop();
});
