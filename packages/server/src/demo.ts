/**
 * `npm run demo`: the real server (as main.ts starts it) plus demo sites, zones, chargers and an
 * RFID card, and a fleet of simulated chargers charging against the server's own OCPP endpoint,
 * so a newcomer sees live data in the portal. The demo rows are inserted idempotently: running
 * the demo again on the same database reuses them.
 */
import { runFleet } from '@ev/simulator';
import { addDemoFirmware } from './firmware/demo.ts';
import { addDemoReservations } from './reservations/demo.ts';
import type { Sql } from './db/client.ts';
import { keepSchemeSessions } from './pricing/scheme-sessions.ts';
import { startServer } from './start.ts';

interface DemoSite {
  address: string;
  address_chi: string;
  address_chs: string;
  gps: [number, number];
  /** The zone's English and Chinese names. */
  zone: [string, string];
  limitA: number;
  chargers: number;
  /** Load management: more chargers than the zone can feed at full speed, so it queues or shares. */
  lms?: { mode: 'QUEUEING' | 'DISTRIBUTION' | 'MIXED'; zoneA: number; minA: number; maxA: number };
  /** Remote starts are priced here (a rate, a price scheme, bays, a voucher campaign). */
  priced?: boolean;
}

const SITES: DemoSite[] = [
  {
    address: 'Harbour View Car Park, 1 Harbour Road, Wan Chai, Hong Kong',
    address_chi: '香港灣仔港灣道1號海景停車場',
    address_chs: '香港湾仔港湾道1号海景停车场',
    gps: [22.2799, 114.1730],
    zone: ['B1 Charging Zone', 'B1 充電區'],
    limitA: 200,
    chargers: 6,
  },
  {
    address: 'Sunrise Mall, 8 Nathan Road, Tsim Sha Tsui, Kowloon',
    address_chi: '九龍尖沙咀彌敦道8號旭日商場',
    address_chs: '九龙尖沙咀弥敦道8号旭日商场',
    gps: [22.2963, 114.1722],
    zone: ['L3 Car Park', 'L3 停車場'],
    limitA: 125,
    chargers: 4,
    priced: true,
  },
  {
    address: 'Kowloon Bay Depot, 9 Sheung Yee Road, Kowloon Bay',
    address_chi: '九龍灣常怡道9號車廠',
    address_chs: '九龙湾常怡道9号车厂',
    gps: [22.3230, 114.2100],
    zone: ['G/F Bays', 'G/F 車位'],
    limitA: 63,
    chargers: 6,
    lms: { mode: 'QUEUEING', zoneA: 48, minA: 16, maxA: 16 },
  },
  {
    address: 'Cityplaza Car Park, 18 Taikoo Shing Road, Quarry Bay',
    address_chi: '鰂魚涌太古城道18號太古城中心停車場',
    address_chs: '鲗鱼涌太古城道18号太古城中心停车场',
    gps: [22.2866, 114.2173],
    zone: ['P2 Charging Zone', 'P2 充電區'],
    limitA: 80,
    chargers: 6,
    lms: { mode: 'DISTRIBUTION', zoneA: 60, minA: 8, maxA: 32 },
  },
];
const PREFIX = 'DEMO-';
const ID_TAGS = ['DEMO0001', 'DEMO0002', 'DEMO0003', 'DEMO0004', 'DEMO0005'];
/** Demo chargers by number (1-based): odd ones have two connectors, even ones and load-managed ones one. */
const CONNECTORS: number[] = SITES.flatMap((site) =>
  Array.from({ length: site.chargers }, (_, i) => (site.lms ? 1 : (i + 1) % 2 === 1 ? 2 : 1)));
const connectorsOf = (n: number) => CONNECTORS[n - 1];

/** The site's load-management profile with its zone's entry, and LMS switched on. */
async function addLoadManagement(sql: Sql, locId: number, zoneId: number, lms: NonNullable<DemoSite['lms']>): Promise<void> {
  await sql.query(
    `INSERT INTO lms_profiles (name, cp_loc, mode)
     SELECT $2, $1, $3 WHERE NOT EXISTS (SELECT 1 FROM lms_profiles WHERE cp_loc = $1 AND deleted_at IS NULL)`,
    [locId, `Demo ${lms.mode.toLowerCase()}`, lms.mode],
  );
  const [{ lms_profile_id }] = await sql.query<{ lms_profile_id: number }>(
    `SELECT lms_profile_id FROM lms_profiles WHERE cp_loc = $1 AND deleted_at IS NULL ORDER BY lms_profile_id LIMIT 1`, [locId]);
  await sql.query(
    `INSERT INTO zone_lms_profiles (lms_profile_id, zone_id, zone_max_available_current, max_charging_current, min_charging_current)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (lms_profile_id, zone_id) DO NOTHING`,
    [lms_profile_id, zoneId, lms.zoneA, lms.maxA, lms.minA],
  );
  await sql.query(`UPDATE cp_locs SET lms_profile_id = $2, enable_lms = 1 WHERE loc_id = $1 AND lms_profile_id IS NULL`, [locId, lms_profile_id]);
}

/**
 * The site's money and parking: a Fixed price scheme ($12 a 15-minute unit, up to 8), a rate with an
 * all-day slot (10 minutes' grace, then $20 per 15 minutes) for all its chargers, a bay in front of
 * each charger's first connector, and a voucher campaign. Remote starts there become priced RSRs.
 */
async function addMoneyAndParking(sql: Sql, locId: number, cpIds: number[]): Promise<void> {
  if ((await sql.query(`SELECT 1 FROM charging_rate WHERE loc_id = $1 AND deleted_at IS NULL`, [locId])).length) return;
  const [scheme] = await sql.query<{ id: number }>(
    `INSERT INTO price_scheme (name, fee, "locId", "maxChargingUnit", type) VALUES ('Demo standard', 1200, $1, 8, 'Fixed') RETURNING id`, [locId]);
  await keepSchemeSessions(sql, scheme.id);
  const [rate] = await sql.query<{ id: number }>(
    `INSERT INTO charging_rate (name, loc_id, unit, gracing_period, max_charging_unit, max_penalty_unit)
     VALUES ('Demo rate', $1, 15, 10, 8, 8) RETURNING id`, [locId]);
  await sql.query(
    `INSERT INTO charging_rate_detail ("chargingRateId", "startTime", "endTime", "maxChargingUnit", "penaltyUnit", "penaltyFee", "priceSchemeId")
     VALUES ($1, '00:00', '24:00', 8, 15, 2000, $2)`, [rate.id, scheme.id]);
  await sql.query(`INSERT INTO charging_rate_cp (cp_id, "chargingRateId") SELECT unnest($1::int[]), $2`, [cpIds, rate.id]);
  await sql.query(
    `INSERT INTO bay ("bayId", "bayName", "locId", "cpId", "connectorId")
     SELECT 'DEMO-BAY-' || cp_id, 'Bay ' || row_number() OVER (ORDER BY cp_id), $1, cp_id, 1 FROM unnest($2::int[]) AS cp_id`, [locId, cpIds]);
  await sql.query(
    `INSERT INTO campaign (name, "nameCHT", fee, "maxChargingUnit", "locIds", "isVoucher", "creUserName")
     VALUES ('Demo free hour', '示範免費一小時', 0, 4, ARRAY[$1::int], 1, 'demo')`, [locId]);
}

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
    const [zoneName, zoneNameChi] = site.zone;
    await sql.query(
      `INSERT INTO cp_zones (loc_id, name, name_chi, max_physical_current_limit)
       SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM cp_zones WHERE loc_id = $1 AND name_chi = $3)`,
      [loc_id, zoneName, zoneNameChi, site.limitA],
    );
    // A demo zone made before zones had English names was given its Chinese one by migration 0020.
    await sql.query(`UPDATE cp_zones SET name = $2 WHERE loc_id = $1 AND name_chi = $3 AND name = name_chi`, [loc_id, zoneName, zoneNameChi]);
    const [{ zone_id }] = await sql.query<{ zone_id: number }>(
      `SELECT zone_id FROM cp_zones WHERE loc_id = $1 AND name_chi = $2 ORDER BY zone_id LIMIT 1`, [loc_id, zoneNameChi]);
    if (site.lms) await addLoadManagement(sql, loc_id, zone_id, site.lms);
    const cpIds: number[] = [];
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
      cpIds.push((await sql.query<{ cp_id: number }>(`SELECT cp_id FROM cps WHERE cp_no = $1 AND deleted_at IS NULL`, [cpNo]))[0].cp_id);
    }
    if (site.priced) await addMoneyAndParking(sql, loc_id, cpIds);
    // A finished firmware update job on the first site's chargers, and past reservations on its first charger.
    if (site === SITES[0]) {
      await addDemoFirmware(sql, cpIds);
      await addDemoReservations(sql, cpIds[0], ID_TAGS[0]);
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
  // Every other charger speaks OCPP 2.0.1: one portal, one load management, both generations.
  protocol: 'mixed',
  idTags: ID_TAGS,
  meterIntervalSec: 10,
  idleSec: [10, 90],
  chargeSec: [60, 300],
});
await fleet.ready;

console.log(`\n  Demo: ${chargers} simulated chargers (${PREFIX}001…) are charging at ${SITES.length} sites, ${SITES.filter((x) => x.lms).length} of them load-managed (see LMS Dashboard).`);
console.log(`  Remote starts at ${SITES.filter((x) => x.priced).map((x) => x.address.split(',')[0]).join(', ')} are priced (Charging Rates, Remote Start Requests).`);
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
