import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { freshDatabaseUrl } from '../testing/database.ts';
import { startChargingLoad } from '../testing/charging-load.ts';
import { addCard, addCharger, addSite } from '../testing/ocpp-support.ts';
import { checkRecovery, freePort, startServerProcess, type ServerProcess } from '../testing/server-process.ts';

/**
 * The server process killed with SIGKILL while 100 chargers charge, then started again on the same
 * PostgreSQL database and port: what it acknowledged before dying is all there, nothing twice.
 * PostgreSQL only: the embedded database is one process's file (bench/ocpp-crash.ts: 1,000 chargers).
 */
const base = process.env.TEST_DATABASE_URL;
const CHARGERS = 100;
const IDTAG = 'CRASHTAG';

describe.skipIf(!base)('SIGKILL while charging (PostgreSQL)', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let server: ServerProcess | undefined;
  let sql: Database;
  let port: number;
  const cpNos = Array.from({ length: CHARGERS }, (_, i) => `CRASH${String(i + 1).padStart(3, '0')}`);
  const start = () => startServerProcess({ databaseUrl: fresh.url, port, adminPassword: 'crash-test-password' });

  beforeAll(async () => {
    fresh = await freshDatabaseUrl();
    port = await freePort();
    server = await start(); // migrates and seeds the fresh database
    sql = await openDatabase(fresh.url, { poolSize: 2 });
    const locId = await addSite(sql);
    for (const cpNo of cpNos) await addCharger(sql, cpNo, { locId });
    await addCard(sql, [IDTAG]);
  }, 120_000);
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await sql?.close();
    await fresh?.drop();
  });

  it('keeps every acknowledged Start/MeterValues/Stop, duplicates no session, and closes what chargers stopped', async () => {
    const load = startChargingLoad({ wsUrl: `ws://127.0.0.1:${port}`, cpNos, idTag: IDTAG, meterIntervalMs: 100, metersPerSession: 4 });
    try {
      // Mid-stream: every charger through several acknowledged messages, sessions open and closing.
      expect(await load.progressed(6, 60_000)).toBe(true);
      await server!.kill('SIGKILL');
      const killedAt = Date.now();
      expect((await server!.exited).signal).toBe('SIGKILL');
      server = await start();
      // Every charger back by itself (it retries), its queued stop sent, charging again.
      expect(await load.progressed(4, 60_000), server.output()).toBe(true);
      // The crash was felt: calls in flight lost their answer, and chargers found the server gone.
      expect(load.calls().some((c) => c.outcome === 'lost' && c.sentAt <= killedAt)).toBe(true);
    } finally {
      await load.stop();
    }
    const report = await checkRecovery(sql, load.calls(), cpNos);
    expect(report.acknowledged).toBeGreaterThan(CHARGERS * 8);
    expect(report.missingRequests).toEqual([]);
    expect(report.missingSessions).toEqual([]);
    expect(report.missingMeterValues).toEqual([]);
    expect(report.unappliedStops).toEqual([]);
    expect(report.duplicateTransactionIds).toEqual([]);
    expect(report.unacknowledgedSessions).toEqual([]);
    // Transaction messages whose answer the crash took were sent again after it, and acknowledged.
    expect(report.retriedStarts + report.retriedStops).toBeGreaterThan(0);
    // Every session closed by its charger's StopTransaction, none by the server's fallback.
    expect(report.openSessions).toBe(0);
    expect(report.closedWithoutStop).toBe(0);
    // Only the crash cost answers: no call went unanswered on a live socket, none was refused.
    expect(report.unanswered.filter((c) => c.outcome === 'timeout')).toEqual([]);
    expect(report.errorCodes).toEqual({});
    // The server is still up and answering.
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  }, 180_000);
});
