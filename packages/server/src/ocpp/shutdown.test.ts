import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer } from '../testing/server.ts';
import { addCharger, connectCharger } from '../testing/ocpp-support.ts';

describe('OCPP on server shutdown', () => {
  it('closes charger sockets with 1012 (Service Restart), so chargers reconnect, and does not wait on them', async () => {
    const s = await startTestServer();
    await addCharger(s.db, 'SHUT-1');
    await addCharger(s.db, 'SHUT-2');
    const chargers = [await connectCharger(s.wsUrl, 'SHUT-1'), await connectCharger(s.wsUrl, 'SHUT-2')];
    const closes = chargers.map((c) => new Promise<{ code: number; reason: string }>((resolve) => c.once('close', resolve)));
    // A call of the server's still waiting for the charger's answer does not hold the shutdown up.
    chargers[1].handle('GetConfiguration', () => new Promise(() => {}));
    void s.app.ocpp.commands.send((await s.db.query(`SELECT cp_id FROM cps WHERE cp_no = 'SHUT-2'`))[0].cp_id, 'GetConfiguration', {});

    const started = Date.now();
    await s.close();
    for (const closed of closes) expect(await closed).toMatchObject({ code: 1012 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('cuts the socket of a charger that does not answer the close frame, after 2 s', async () => {
    const s = await startTestServer();
    await addCharger(s.db, 'SHUT-DEAF');
    const ws = new WebSocket(`${s.wsUrl}/ocpp/SHUT-DEAF`, ['ocpp1.6']);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    // It reads nothing more, so it never sees the close frame nor answers it.
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));

    const started = Date.now();
    await s.close();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(5_000); // ws's own close timeout would be 30 s
    // Reading again, it finds the server's close frame and then the end of the cut socket.
    (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await closed).toBe(1012);
  });
});
