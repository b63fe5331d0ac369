import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { ERROR_CODES, readPrivilege, type LmsClientMessage, type LmsCpStatus, type LmsServerMessage, type LmsStatusUpdate, type LmsZoneStatus } from '@ev/core';
import { resolveToken, type AuthUser } from '../auth/session.ts';
import type { LoadManager } from './runtime.ts';
import { cpStatus, zoneStatuses } from './status.ts';

export const LMS_SOCKET_PATH = '/api/lms/status';
const READ_DASHBOARD = readPrivilege('lms/dashboard');
const READ_LOG = readPrivilege('realtime/log');
/** Changes are pushed at most this often per site. */
const PUSH_EVERY_MS = 250;
/** The signed-in user behind a socket is checked again this often (revoked, expired, rights changed). */
const RECHECK_MS = 60_000;
const MAX_BAD_MESSAGES = 20;

interface Client {
  ws: WebSocket;
  token: string;
  user: AuthUser;
  checkedAt: number;
  log: boolean;
  bad: number;
}

const sees = (user: AuthUser, locId: number) => user.allSites || user.siteIds.includes(locId);

/**
 * The live LMS socket (spec part 1 §7, `{ws base}/lms/status`): authenticated by the portal's
 * token (`?token=`), scoped to the user's sites. Answers all_status_update with the whole picture,
 * pushes what changed, stops a charging session on request (through the same route and checks
 * as the charger view's stop button), and streams the realtime log to those allowed to read it.
 */
export function lmsSocket(app: FastifyInstance, lms: LoadManager, intervalMs: number): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const clients = new Set<Client>();
  /** Per site, cp_no → the status last pushed (JSON), so only changes go out. */
  const pushed = new Map<number, Map<string, string>>();
  const dueSites = new Set<number>();
  let pushTimer: NodeJS.Timeout | null = null;

  const send = (c: Client, m: LmsServerMessage) => {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(m));
  };

  function siteStatus(locId: number): { cp: Record<string, LmsCpStatus>; zones: LmsZoneStatus[] } {
    const site = lms.sites.get(locId);
    const cp: Record<string, LmsCpStatus> = {};
    if (!site) return { cp, zones: [] };
    for (const c of site.chargers.values()) cp[c.cpNo] = cpStatus(c);
    return { cp, zones: zoneStatuses(site) };
  }

  function fullUpdate(user: AuthUser): LmsStatusUpdate {
    const update: LmsStatusUpdate = { type: 'status_update', full: true, cp: {}, zones: {}, interval_ms: intervalMs };
    for (const locId of lms.sites.keys()) {
      if (!sees(user, locId)) continue;
      const { cp, zones } = siteStatus(locId);
      Object.assign(update.cp, cp);
      for (const z of zones) update.zones[z.zone_id] = z;
    }
    return update;
  }

  function pushChanges(): void {
    pushTimer = null;
    for (const locId of dueSites) {
      const { cp, zones } = siteStatus(locId);
      const before = pushed.get(locId) ?? new Map<string, string>();
      const now = new Map<string, string>();
      const changed: Record<string, LmsCpStatus> = {};
      for (const [cpNo, s] of Object.entries(cp)) {
        const json = JSON.stringify(s);
        now.set(cpNo, json);
        if (before.get(cpNo) !== json) changed[cpNo] = s;
      }
      // A charger that left the site (or the site left LMS): the screens must drop it.
      const gone = [...before.keys()].some((cpNo) => !now.has(cpNo));
      pushed.set(locId, now);
      if (!Object.keys(changed).length && !gone && !zones.length) continue;
      for (const client of clients) {
        if (!client.user.privileges.has(READ_DASHBOARD) || !sees(client.user, locId)) continue;
        if (gone) send(client, fullUpdate(client.user));
        else send(client, { type: 'status_update', full: false, cp: changed, zones: Object.fromEntries(zones.map((z) => [z.zone_id, z])), interval_ms: intervalMs });
      }
    }
    dueSites.clear();
  }

  lms.on('changed', (locId) => {
    dueSites.add(locId);
    pushTimer ??= setTimeout(pushChanges, PUSH_EVERY_MS);
  });
  lms.log.on('entry', (entry) => {
    for (const client of clients) {
      if (client.log && sees(client.user, entry.loc_id)) send(client, { type: 'lms_log', entries: [entry] });
    }
  });

  async function stopCharging(client: Client, cpNo: unknown): Promise<void> {
    const reply = (status: 'success' | 'error', errorCode?: number, message?: string) =>
      send(client, { type: 'stop_charging_session_result', cpNo: String(cpNo), status, errorCode, message });
    const site = [...lms.sites.values()].find((s) => [...s.chargers.values()].some((c) => c.cpNo === cpNo));
    const charger = site && [...site.chargers.values()].find((c) => c.cpNo === cpNo);
    if (!charger || !sees(client.user, charger.locId)) return reply('error', ERROR_CODES.CP_NOT_FOUND);
    const tx = [...charger.transactions.values()][0];
    if (!tx) return reply('error', ERROR_CODES.NO_TRANSACTION);
    // The charger view's stop route: its privilege check, audit and answer codes, for this user.
    const res = await app.inject({
      method: 'POST',
      url: `/api/cps/rsrStopCharger/${charger.cpId}`,
      headers: { authorization: `Bearer ${client.token}` },
      payload: { connectorId: tx.connectorId, remark: 'LMS dashboard' },
    });
    if (res.statusCode === 403) return reply('error', undefined, 'Insufficient operation permissions');
    const body = res.json() as { status?: string; errorCode?: number; message?: string };
    reply(body.status === 'success' ? 'success' : 'error', body.errorCode, body.message);
  }

  async function onMessage(client: Client, raw: string): Promise<void> {
    let m: LmsClientMessage;
    try {
      m = JSON.parse(raw);
      if (typeof m !== 'object' || m === null || typeof m.type !== 'string') throw new Error('not a message');
    } catch {
      if (++client.bad > MAX_BAD_MESSAGES) client.ws.close(1008, 'Too many malformed messages');
      else send(client, { type: 'error', message: 'Malformed message: expected JSON with a type' });
      return;
    }
    if (Date.now() - client.checkedAt > RECHECK_MS) {
      const user = await resolveToken(app.db, client.token, app.config.tokenTtlHours);
      if (!user) return void client.ws.close(4001, 'Signed out');
      client.user = user;
      client.checkedAt = Date.now();
    }
    switch (m.type) {
      case 'all_status_update':
        if (!client.user.privileges.has(READ_DASHBOARD)) return send(client, { type: 'error', message: `${READ_DASHBOARD} required` });
        return send(client, fullUpdate(client.user));
      case 'stop_charging_session':
        return stopCharging(client, m.cpNo);
      case 'subscribe_log':
        if (!client.user.privileges.has(READ_LOG)) return send(client, { type: 'error', message: `${READ_LOG} required` });
        client.log = true;
        return send(client, { type: 'lms_log', entries: lms.log.recent().filter((e) => sees(client.user, e.loc_id)) });
      default:
        if (++client.bad > MAX_BAD_MESSAGES) client.ws.close(1008, 'Too many malformed messages');
        else send(client, { type: 'error', message: `Unknown message type ${String((m as { type: unknown }).type).slice(0, 40)}` });
    }
  }

  const refuse = (socket: Duplex, status: string) => {
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  app.describeWebSocket({
    path: LMS_SOCKET_PATH,
    summary: 'Live load management and dashboard status',
    description: 'JSON messages. Send {"type":"all_status_update"} for the whole picture, '
      + '{"type":"stop_charging_session","cpNo":"…"} to stop a charger\'s session, {"type":"subscribe_log"} for the LMS log; '
      + 'the server pushes status_update, stop_charging_session_result, lms_log and error messages. Refused at the upgrade: '
      + '401 without a valid token, 403 without either privilege.',
    parameters: [{ name: 'token', in: 'query', description: 'The sign-in token of POST /api/login' }],
    anyPrivilege: [READ_DASHBOARD, READ_LOG],
    note: `Status needs ${READ_DASHBOARD}, the log ${READ_LOG}; only the sites the user may see.`,
  });

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== LMS_SOCKET_PATH) return;
    const token = url.searchParams.get('token') ?? '';
    resolveToken(app.db, token, app.config.tokenTtlHours).then(
      (user) => {
        if (!user) return refuse(socket, '401 Unauthorized');
        if (!user.privileges.has(READ_DASHBOARD) && !user.privileges.has(READ_LOG)) return refuse(socket, '403 Forbidden');
        wss.handleUpgrade(req, socket, head, (ws) => {
          const client: Client = { ws, token, user, checkedAt: Date.now(), log: false, bad: 0 };
          clients.add(client);
          ws.on('message', (data) => {
            onMessage(client, data.toString()).catch((err) => {
              app.log.error({ err }, 'LMS socket message failed');
              send(client, { type: 'error', message: 'Server error, please try again later' });
            });
          });
          ws.on('close', () => clients.delete(client));
          ws.on('error', () => clients.delete(client));
        });
      },
      (err) => {
        app.log.warn({ err: err.message }, 'LMS socket refused: sign-in not checked');
        refuse(socket, '503 Service Unavailable');
      },
    );
  });

  app.addHook('preClose', async () => {
    if (pushTimer) clearTimeout(pushTimer);
    for (const c of clients) c.ws.close(1001, 'Server shutting down');
    wss.close();
  });
}
