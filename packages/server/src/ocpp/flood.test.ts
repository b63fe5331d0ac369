import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { MALFORMED_LIMIT, MALFORMED_READ_FREELY } from './connection.ts';
import { SummarisedLog } from './summarised-log.ts';
import { addCharger, connectCharger, rawCharger, upgradeStatus } from '../testing/ocpp-support.ts';

/** Chargers sending garbage are read slowly, then cut off, and the rest are served as usual. */
describe('OCPP malformed-message flood', () => {
  const readPauseMs = 100;
  let s: TestServer;
  const flooders = ['CP-FL1', 'CP-FL2', 'CP-FL3', 'CP-FL4', 'CP-FL5'];
  const healthy = ['CP-OK1', 'CP-OK2', 'CP-OK3'];
  beforeAll(async () => {
    s = await startTestServer({ ocppGarbageReadPauseMs: readPauseMs });
    for (const no of [...flooders, ...healthy]) await addCharger(s.db, no);
  });
  afterAll(() => s.close());

  it('reads connections that keep sending malformed messages slowly, closes them, refuses them for a while, and keeps serving the others', async () => {
    const good = await Promise.all(healthy.map((no) => connectCharger(s.wsUrl, no)));
    let heartbeats = 0;
    let serving = true;
    const beating = Promise.all(good.map(async (cp) => {
      while (serving) {
        await cp.call('Heartbeat', {});
        heartbeats++;
      }
    }));

    try {
      const floods = await Promise.all(flooders.map(async (no) => {
        const raw = await rawCharger(s.wsUrl, no);
        const connected = Date.now();
        let answered = 0;
        raw.ws.on('message', () => answered++);
        // A valid message every few frames: what closes the socket is the count per window, not a run of bad frames.
        for (let i = 0; raw.ws.readyState === raw.ws.OPEN && i < 200; i++) {
          raw.send(i % 4 === 3 ? JSON.stringify([2, `hb${i}`, 'Heartbeat', {}]) : i % 2 ? '{garbage' : JSON.stringify([2, `b${i}`, 'StatusNotification', { connectorId: 'x' }]));
          await new Promise((r) => setImmediate(r));
        }
        const closed = await raw.closed;
        return { answered, closed, ms: Date.now() - connected };
      }));
      for (const { answered, closed, ms } of floods) {
        expect(closed.code).toBe(1008);
        // The frames were all sent at once; past the first few malformed ones, each held the reading up.
        expect(ms).toBeGreaterThanOrEqual((MALFORMED_LIMIT - MALFORMED_READ_FREELY) * readPauseMs);
        // Past the limit the server stops reading: what the flooder sent after it (up to 200 frames) is not answered.
        expect(answered).toBeGreaterThan(MALFORMED_LIMIT);
        expect(answered).toBeLessThan(MALFORMED_LIMIT * 2);
      }
      // A charger cut off for garbage cannot come straight back.
      expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-FL1`)).toBe(429);
      // A charger that never misbehaved is untouched.
      expect(await upgradeStatus(`${s.wsUrl}/ocpp/CP-OK3-NEW`)).toBe(401);
    } finally {
      serving = false;
      await beating;
    }
    expect(heartbeats).toBeGreaterThan(healthy.length);
    for (const cp of good) expect(cp.state).toBe(WebSocket.OPEN);
    await Promise.all(good.map((cp) => cp.close()));
  });
});

describe('SummarisedLog', () => {
  it('logs a storm of one warning as its first line and one summary line per interval', async () => {
    const lines: { fields: any; msg: string }[] = [];
    const log = { warn: (fields: any, msg: string) => lines.push({ fields, msg }) } as unknown as FastifyBaseLogger;
    const summary = new SummarisedLog(log, 'warn', 'bad frame', 40);
    for (let i = 0; i < 1000; i++) summary.note('CP1', { cpNo: 'CP1', i });
    summary.note('CP2', { cpNo: 'CP2' });
    expect(lines.map((l) => l.fields.cpNo)).toEqual(['CP1', 'CP2']);
    await new Promise((r) => setTimeout(r, 80));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ msg: 'bad frame (repeated)', fields: { cpNo: 'CP1', count: 999, i: 999 } });
    summary.close();
  });
});
