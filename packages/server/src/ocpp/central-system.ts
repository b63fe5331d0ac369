import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { RPCServer } from 'ocpp-rpc';
import type RpcServerClient from 'ocpp-rpc/lib/server-client';
import type { Bus } from '../bus/index.ts';
import type { Database } from '../db/client.ts';
import { RemoteStarts } from './authorization.ts';
import { ADDRESS_REFUSAL_MS, AbusiveAddresses, DEFAULT_GARBAGE_CLOSES_PER_ADDRESS, DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS } from './abusive-addresses.ts';
import { rotationDone } from '../charger-credentials/rotation.ts';
import { BatchWriter } from './batch-writer.ts';
import { ChargerConnection, DEFAULT_GARBAGE_READ_PAUSE_MS, DEFAULT_PING_INTERVAL_MS, MALFORMED_LIMIT, MALFORMED_READ_FREELY, type Charger } from './connection.ts';
import { ocpp16Validator, ocpp201Validator, SUBPROTOCOL, SUBPROTOCOL_201, toOcpp16Frame, toOcpp201Frame } from './protocol.ts';
import { registerHandlers, type InjectOutcome } from './handlers.ts';
import { clientAddress, trustFunction, type TrustProxy } from '../http/client-address.ts';
import { takeInboundFrames } from './inbound.ts';
import { SummarisedLog } from './summarised-log.ts';
import { SignInLookup, type ChargerRow } from './sign-in.ts';
import { OnlineStates } from './online-state.ts';
import { startingBootState } from './boot-policy.ts';

/** Largest frame accepted from a charger; a bigger one closes the socket with 1009 (message too big). */
const MAX_FRAME_BYTES = 256 * 1024;
/** Consecutive unparsable frames tolerated before the socket is closed. */
const MAX_BAD_MESSAGES = 10;
/** A charger closed for sending garbage is refused this long, so a flood cannot go on by reconnecting. */
const MALFORMED_COOLDOWN_MS = 30_000;

/**
 * The OCPP endpoint, 1.6-J and 2.0.1 (ocpp/v201/): accepts chargers at /ocpp/{chargeBoxId}, keeps one connection per
 * charger (a reconnect replaces the older socket) and records the connection state in cps.
 */
export class CentralSystem {
  readonly writer: BatchWriter;
  readonly remoteStarts = new RemoteStarts();
  private readonly rpc: RPCServer;
  private readonly byId = new Map<number, ChargerConnection>();
  /** Online/offline flags, in event order (online-state.ts). */
  private readonly states: OnlineStates;
  /** cp_no → until when a charger closed for sending garbage is refused. */
  private readonly cooldown = new Map<string, number>();
  /** Set when several nodes share chargers (cluster/): each connection claims its charger, each close gives it up. */
  presence?: { connected(charger: Charger): void; released(cpId: number): Promise<boolean> };
  /** Set with presence: runs a message injected in a charger's name (the tester) on the node holding the charger. */
  injectElsewhere?: (cpId: number, action: string, params: Record<string, unknown>, messageId: string) => Promise<InjectOutcome>;
  private readonly releasing = new Set<Promise<void>>();
  /** The cps rows and passwords of chargers signing in (sign-in.ts). */
  private readonly signIn: SignInLookup;
  private readonly malformedLog: SummarisedLog;
  readonly failureLog: SummarisedLog;

  private readonly abusive: AbusiveAddresses;
  /** Addresses refused for failed sign-ins (unknown charger, no or wrong password). */
  private readonly signInFailures: AbusiveAddresses;
  /** Upgrades refused, by reason (http/metrics.ts). */
  readonly refusals = new Map<string, number>();
  private readonly garbageReadPauseMs: number;
  private readonly pingIntervalMs: number;
  private readonly pingSweep: NodeJS.Timeout | undefined;
  private readonly trust: (address: string, index: number) => boolean;

  constructor(
    readonly db: Database,
    readonly log: FastifyBaseLogger,
    readonly bus: Bus,
    opts: {
      /** Closes for garbage from one address in a minute before it is refused (0: never; see abusive-addresses.ts). */
      garbageClosesPerAddress?: number;
      /** Failed sign-ins from one address in a minute before it is refused (0: never). */
      signInFailuresPerAddress?: number;
      /** Reading paused after each malformed message past the first few of a connection (0: never paused). */
      garbageReadPauseMs?: number;
      /** Whose X-Forwarded-For names a charger's address (TRUST_PROXY), as for the portal's req.ip. */
      trustProxy?: TrustProxy;
      /** WebSocket ping to each charger every this many ms; unanswered by the next, the socket is cut (0: never). */
      pingIntervalMs?: number;
    } = {},
  ) {
    this.abusive = new AbusiveAddresses(opts.garbageClosesPerAddress ?? DEFAULT_GARBAGE_CLOSES_PER_ADDRESS);
    this.signInFailures = new AbusiveAddresses(opts.signInFailuresPerAddress ?? DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS);
    this.garbageReadPauseMs = opts.garbageReadPauseMs ?? DEFAULT_GARBAGE_READ_PAUSE_MS;
    this.trust = trustFunction(opts.trustProxy ?? false);
    this.pingIntervalMs = opts.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    // One sweep for all connections instead of ocpp-rpc's keep-alive per client: its timer, AbortController
    // and the two AbortErrors it builds at each close cost a reconnect storm of 15,000 about a tenth of the
    // server's CPU and each held connection some 4 KB (issue 14). Pings stay spread as connections came.
    if (this.pingIntervalMs > 0) {
      this.pingSweep = setInterval(() => this.keepAlive(), Math.min(1000, this.pingIntervalMs));
      this.pingSweep.unref();
    }
    this.writer = new BatchWriter(db);
    this.signIn = new SignInLookup(db);
    this.malformedLog = new SummarisedLog(log, 'warn', 'OCPP malformed message from charger');
    this.failureLog = new SummarisedLog(log, 'error', 'OCPP message not processed');
    this.states = new OnlineStates(this.writer, this.failureLog);
    this.rpc = new RPCServer({
      protocols: [SUBPROTOCOL_201, SUBPROTOCOL],
      strictMode: true,
      strictModeValidators: [ocpp16Validator, ocpp201Validator],
      // One call in flight per charger and direction (OCPP-J 1.6 §4.1.1).
      callConcurrency: 1,
      maxBadMessages: MAX_BAD_MESSAGES,
      pingIntervalMs: 0, // see keepAlive()
      wssOptions: { maxPayload: MAX_FRAME_BYTES },
    });
    this.rpc.auth((accept, reject, handshake) => this.authenticate(accept, reject, handshake));
    this.rpc.on('client', (client: RpcServerClient) => this.onClient(client));
  }

  /** The live connection of a charger on this node, if any. */
  connection(cpId: number): ChargerConnection | undefined {
    return this.byId.get(cpId);
  }

  /** cp_id of every charger connected to this node. */
  connectedIds(): number[] {
    return [...this.byId.keys()];
  }

  get connectionCount(): number {
    return this.byId.size;
  }

  /** The http server's 'upgrade' listener: takes /ocpp/ paths, leaves every other upgrade alone. */
  handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '').split('?')[0];
    if (!path.startsWith('/ocpp/')) return;
    const rest = path.slice('/ocpp/'.length);
    let id: string | null = null;
    try {
      id = rest && !rest.includes('/') ? decodeURIComponent(rest) : null;
    } catch {
      id = null;
    }
    if (!id) {
      this.log.warn({ path, ip: req.socket.remoteAddress }, 'OCPP connection refused: no chargeBoxId in the path');
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const address = clientAddress(req, this.trust);
    const abusive = this.abusive.refused(address);
    if (abusive || this.signInFailures.refused(address)) {
      this.countRefusal(abusive ? 'abusive address' : 'too many failed sign-ins');
      socket.end(`HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${ADDRESS_REFUSAL_MS / 1000}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    void this.rpc.handleUpgrade(req, socket as any, head);
  };

  private async authenticate(
    accept: (session?: Record<string, any>, protocol?: string | false) => void,
    reject: (code: number, message: string) => void,
    handshake: RpcServerClient['handshake'],
  ): Promise<void> {
    const cpNo = handshake.identity;
    const refuse = (code: number, reason: string) => {
      this.log.warn({ cpNo, reason, ip: handshake.remoteAddress }, 'OCPP connection refused');
      this.countRefusal(reason);
      // Guessing chargeBoxIds or passwords: past the limit the address is refused at the upgrade (429).
      if (code === 401 && this.signInFailures.closed(clientAddress(handshake.request, this.trust))) {
        this.log.warn({ ip: handshake.remoteAddress, refusedMs: ADDRESS_REFUSAL_MS }, 'OCPP connections refused from an address: too many failed sign-ins');
      }
      reject(code, reason);
    };
    try {
      // A charger offering both versions gets the newer one.
      const protocol = handshake.protocols.has(SUBPROTOCOL_201) ? SUBPROTOCOL_201 : handshake.protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : null;
      if (!protocol) return refuse(400, `subprotocol ${SUBPROTOCOL_201} or ${SUBPROTOCOL} not offered`);
      const until = this.cooldown.get(cpNo);
      if (until !== undefined) {
        if (until > Date.now()) {
          this.malformedLog.note(cpNo, { cpNo, refused: 'reconnect during cool-down' });
          return reject(429, 'too many malformed messages: try again later');
        }
        this.cooldown.delete(cpNo);
      }
      // The live row (batched with other sign-ins); only a miss looks among deleted rows.
      const cp = await this.signIn.row(cpNo);
      if (!cp) {
        const deleted = await this.db.query(`SELECT 1 FROM cps WHERE cp_no = $1 LIMIT 1`, [cpNo]);
        // 401 as for a wrong password: an upgrade does not tell which chargeBoxIds exist.
        return refuse(401, deleted.length ? 'charger deleted' : 'unknown charger');
      }
      if (cp.enable_flag !== 1) return refuse(403, 'charger disabled');
      if (cp.ocpp_password_hash) {
        const signedIn = await this.signIn.passwordGiven(cp, handshake.password);
        if (!signedIn) return refuse(401, handshake.password ? 'wrong password' : 'no password');
        // The new password of a rotation works: the old one is no longer accepted.
        if (signedIn === 'current' && cp.ocpp_password_rotating) await rotationDone(this.db, cp.cp_id, cp.ocpp_password_hash);
      }
      const charger: Charger = {
        cpId: cp.cp_id, cpNo: cp.cp_no, locId: cp.loc_id, serial: cp.charge_box_serial_number, heartbeatInterval: cp.heartbeat_interval, protocol,
      };
      startingBootState(charger, cp.boot_policy, cp.boot_status);
      accept({ charger, passwordHash: cp.ocpp_password_hash }, protocol);
    } catch (err) {
      this.failureLog.note('sign-in', { err: (err as Error).message, cpNo });
      reject(503, 'central system unavailable');
    }
  }

  private countRefusal(reason: string): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
  }

  private onClient(client: RpcServerClient): void {
    const charger: Charger = client.session.charger;
    // Every CALLERROR leaving this socket carries a code of the connection's OCPP-J version (see protocol.ts).
    const sendRaw = client.sendRaw.bind(client);
    const toFrame = charger.protocol === SUBPROTOCOL_201 ? toOcpp201Frame : toOcpp16Frame;
    client.sendRaw = (message: string) => sendRaw(typeof message === 'string' ? toFrame(message) : message);
    // ocpp-rpc's close() (ours, and its own after too many bad frames) waits for the socket's 'close'
    // with events.once, which rejects if the socket errors meanwhile (a frame over the limit still
    // arriving): unhandled, that ended the process. The socket is gone either way.
    const close = client.close.bind(client);
    client.close = (options) => close(options).catch(() => ({ code: 1006, reason: 'socket error while closing' }));

    const conn = new ChargerConnection(charger, client, client.session.passwordHash, this.pingIntervalMs);
    const older = this.byId.get(charger.cpId);
    this.byId.set(charger.cpId, conn);
    if (older) {
      this.log.info({ cpNo: charger.cpNo }, 'OCPP charger reconnected: closing its older connection');
      void older.client.close({ code: 1000, reason: 'Replaced by a newer connection' });
    }
    this.presence?.connected(charger);
    this.log.info({ cpNo: charger.cpNo, ip: client.handshake.remoteAddress }, 'OCPP charger connected');
    void this.states.write(charger.cpId, true, charger.protocol);
    this.bus.emit('chargerPresence', { cpId: charger.cpId, locId: charger.locId, online: true });

    registerHandlers(this, conn);
    takeInboundFrames(client, {
      protocol: charger.protocol ?? SUBPROTOCOL,
      maxBadFrames: MAX_BAD_MESSAGES,
      onMalformed: (reason) => this.malformed(conn, reason),
      closeForGarbage: (code, reason) => this.closeForGarbage(conn, code, reason),
    });
    // An answer to one of our calls that breaks its schema (the library checks those).
    client.on('strictValidationFailure', ({ error, outbound }: { error: Error; outbound: boolean }) => {
      if (!outbound) this.malformed(conn, error.message);
    });
    client.once('close', ({ code, reason }: { code: number; reason: string }) => {
      if (this.byId.get(charger.cpId) !== conn) return; // replaced: the newer connection owns the state
      this.byId.delete(charger.cpId);
      this.log.info({ cpNo: charger.cpNo, code, reason }, 'OCPP charger disconnected');
      if (conn.movedAway) return; // it reconnected to another node, which has it online
      if (!this.presence) return this.wentOffline(charger);
      const releasing = this.presence.released(charger.cpId).then((ours) => {
        // Offline only while no node has it: not if it is back here or moved to another node meanwhile.
        if (ours && !this.byId.has(charger.cpId)) this.wentOffline(charger);
      });
      this.releasing.add(releasing);
      void releasing.finally(() => this.releasing.delete(releasing));
    });
  }

  /** Pings the connections whose turn it is and cuts those that left the previous ping unanswered. */
  private keepAlive(): void {
    const now = Date.now();
    for (const conn of this.byId.values()) {
      if (conn.keepAlive(now) === 'dead') {
        this.log.info({ cpNo: conn.charger.cpNo }, 'OCPP charger did not answer the last ping: connection cut');
      }
    }
  }

  private wentOffline(charger: Charger): void {
    void this.states.write(charger.cpId, false);
    this.bus.emit('chargerPresence', { cpId: charger.cpId, locId: charger.locId, online: false });
  }

  /**
   * The charger connected to another node (cluster/): the socket here is stale. It is dropped
   * without an offline flag or event, which would undo the other node's online.
   */
  dropMoved(cpId: number): void {
    const conn = this.byId.get(cpId);
    if (!conn) return;
    conn.movedAway = true;
    this.log.info({ cpNo: conn.charger.cpNo }, 'OCPP charger connected to another node: closing its connection here');
    void conn.client.close({ code: 1000, reason: 'Connected to another node' });
  }

  /**
   * A frame that is not OCPP, or a call that breaks its schema: answered with a CALLERROR,
   * logged in summary. A connection that keeps at it is read slowly, then closed and cooled down.
   */
  private malformed(conn: ChargerConnection, reason: string): void {
    const { cpNo } = conn.charger;
    this.malformedLog.note(cpNo, { cpNo, err: reason });
    const count = conn.countMalformed();
    if (count <= MALFORMED_LIMIT) {
      if (count > MALFORMED_READ_FREELY) conn.holdReading(this.garbageReadPauseMs);
      return;
    }
    if (this.cooldown.has(cpNo)) return;
    this.cooldown.set(cpNo, Date.now() + MALFORMED_COOLDOWN_MS);
    this.log.warn({ cpNo, cooldownMs: MALFORMED_COOLDOWN_MS }, 'OCPP charger closed: too many malformed messages');
    this.closeForGarbage(conn, 1008, 'Too many malformed messages');
    // What it sent after crossing the line is not read: a flooder's frames already in the socket
    // buffer (thousands, written without waiting) would otherwise each be parsed and answered,
    // holding up every other charger.
    conn.stopReading();
  }

  /** Closes a connection for the garbage it sent, counted against its address (abusive-addresses.ts). */
  private closeForGarbage(conn: ChargerConnection, code: number, reason: string): void {
    const address = clientAddress(conn.client.handshake.request, this.trust);
    if (this.abusive.closed(address)) {
      this.log.warn({ ip: address, refusedMs: ADDRESS_REFUSAL_MS }, 'OCPP connections refused from an address: too many closed for garbage');
    }
    void conn.client.close({ code, reason });
  }

  /**
   * After the portal changed or deleted a charger: closes its connection if the charger could not
   * sign in now (deleted, disabled, renamed, or a password other than the one it signed in with),
   * so that it must sign in again under the new rules.
   */
  async recheck(cpId: number, action: 'UPDATE' | 'DELETE', changed: readonly string[]): Promise<void> {
    // A cached sign-in must not outlive the password it was checked against.
    if (changed.includes('ocpp_password') || action === 'DELETE') this.signIn.forget(cpId);
    const conn = this.byId.get(cpId);
    if (!conn) return;
    const [cp] = await this.db.query<Pick<ChargerRow, 'cp_no' | 'enable_flag' | 'ocpp_password_hash' | 'ocpp_password_rotating' | 'heartbeat_interval'>>(
      `SELECT cp_no, enable_flag, ocpp_password_hash, ocpp_password_rotating, heartbeat_interval FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`,
      [cpId],
    );
    // The interval a BootNotification on this connection answers with follows the portal.
    if (cp) conn.charger.heartbeatInterval = cp.heartbeat_interval;
    const reason = !cp ? 'charger deleted'
      : cp.enable_flag !== 1 ? 'charger disabled'
      : cp.cp_no !== conn.charger.cpNo ? 'charge box id changed'
      // A rotation (charger-credentials/) keeps the charger connected: it signs in with the new password next time.
      : !cp.ocpp_password_rotating && (cp.ocpp_password_hash ?? null) !== conn.passwordHash ? 'password changed'
      : null;
    if (reason) await this.disconnect(cpId, reason);
  }

  /** Closes a charger's connection now (1008, policy violation, with the reason). Resolves once it is closed. */
  async disconnect(cpId: number, reason: string): Promise<void> {
    this.signIn.forget(cpId);
    const conn = this.byId.get(cpId);
    if (!conn) return;
    this.log.info({ cpNo: conn.charger.cpNo, reason }, 'OCPP charger disconnected by the central system');
    await conn.client.close({ code: 1008, reason });
  }

  /**
   * At start no charger is connected to this process. (With several nodes sharing chargers this
   * must become per node.)
   */
  async resetOnlineFlags(): Promise<void> {
    // Other nodes' chargers are online: stale flags are found by the presence sweep (cluster/) instead.
    if (this.presence) return;
    // The process ended without marking them: their last message is the latest they are known to have been there.
    await this.db.query(`UPDATE cps SET online_flag = 0, offline_since = coalesce(last_message_dttm, now()) WHERE online_flag = 1`);
  }

  /**
   * Closes every charger socket with 1012 (Service Restart: the charger reconnects, to another node
   * when there is one), cutting those that do not finish the close handshake within
   * CLOSE_HANDSHAKE_MS, then waits for the state and log writes they caused.
   */
  async close(): Promise<void> {
    this.states.closing = true;
    clearInterval(this.pingSweep);
    await Promise.all([...this.byId.values()].map(closeForRestart));
    await this.rpc.close({ force: true });
    await Promise.all([...this.releasing]);
    await this.states.settled();
    await this.writer.drain();
    this.malformedLog.close();
    this.failureLog.close();
  }
}

/** How long a charger has to answer the server's close frame before its socket is cut. */
const CLOSE_HANDSHAKE_MS = 2000;

async function closeForRestart(conn: ChargerConnection): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((done) => {
    timer = setTimeout(() => {
      conn.cut();
      done();
    }, CLOSE_HANDSHAKE_MS);
  });
  const graceful = conn.client.close({ code: 1012, reason: 'Server restarting', awaitPending: false }).then(() => undefined, () => undefined);
  await Promise.race([graceful, cut]);
  clearTimeout(timer);
}
