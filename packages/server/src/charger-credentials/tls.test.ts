import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCharger, SimulatedCharger201 } from '@ev/simulator';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger } from '../testing/ocpp-support.ts';
import { closeTls, listenTls } from './tls.ts';

/** Issue 29, OCPP security profile 2: the server terminates TLS itself; a charger connects over wss:// with HTTP Basic. */
describe('wss:// with a certificate of the server', () => {
  let s: TestServer;
  let tls: Server;
  let dir: string;
  let url: string;
  let ca: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ocpp-tls-'));
    const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    // A self-signed certificate for 127.0.0.1, made for this test (Node can make keys, not certificates).
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    ca = readFileSync(cert);
    s = await startTestServer();
    tls = await listenTls(s.app, { certFile: cert, keyFile: key, port: 0 }, '127.0.0.1');
    url = `wss://127.0.0.1:${(tls.address() as AddressInfo).port}/ocpp`;
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    if (tls) closeTls(tls);
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects a charger that trusts the certificate, signs it in with its password and serves the API over https', async () => {
    await addCharger(s.db, 'SIM-TLS', { password: 'tls-password-0123' });
    const sim = new SimulatedCharger({ url, cpNo: 'SIM-TLS', password: 'tls-password-0123', connectors: 1, reconnect: false, tls: { ca } });
    try {
      await sim.start();
      expect(sim.isConnected).toBe(true);
      expect(await sim.heartbeat()).toEqual(expect.any(String));
      expect(s.app.ocpp.central.connectedIds()).toHaveLength(1);
    } finally {
      await sim.stop();
    }
    // The portal's API on the same TLS port (Node's fetch cannot take a CA: the https module can).
    const { get } = await import('node:https');
    const status = await new Promise<number>((resolve, reject) => {
      get(`https://127.0.0.1:${(tls.address() as AddressInfo).port}/healthz`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(200);
  });

  it('is refused by a charger that does not trust the certificate, and refuses a wrong password over TLS', async () => {
    const untrusting = new SimulatedCharger({ url, cpNo: 'SIM-TLS', password: 'tls-password-0123', connectors: 1, reconnect: false });
    await expect(untrusting.start()).rejects.toThrow(/self[- ]signed|certificate/i);
    await untrusting.stop();
    const wrong = new SimulatedCharger({ url, cpNo: 'SIM-TLS', password: 'not-the-password-xx', connectors: 1, reconnect: false, tls: { ca } });
    await expect(wrong.start()).rejects.toThrow(/Unauthorized|401/);
    await wrong.stop();
  });

  it('serves an OCPP 2.0.1 station the same way (security profile 2: TLS with Basic auth), and refuses its wrong password', async () => {
    const cpId = await addCharger(s.db, 'SIM-TLS-201', { password: 'tls-password-201-x' });
    const sim = new SimulatedCharger201({ url, cpNo: 'SIM-TLS-201', password: 'tls-password-201-x', connectors: 1, reconnect: false, tls: { ca } });
    try {
      await sim.start();
      expect(sim.isConnected).toBe(true);
      expect(await sim.heartbeat()).toEqual(expect.any(String));
      expect(s.app.ocpp.central.connection(cpId)?.charger.protocol).toBe('ocpp2.0.1');
    } finally {
      await sim.stop();
    }
    const wrong = new SimulatedCharger201({ url, cpNo: 'SIM-TLS-201', password: 'not-the-password-201', connectors: 1, reconnect: false, tls: { ca } });
    await expect(wrong.start()).rejects.toThrow(/Unauthorized|401/);
    await wrong.stop();
  });
});
