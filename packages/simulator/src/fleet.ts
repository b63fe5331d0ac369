import { createCharger, type AnyCharger } from './factory.ts';
import type { FirmwareOptions } from './firmware.ts';
import type { SimLogger } from './link.ts';
import type { BackoffOptions } from './connection.ts';

export type Scenario = 'idle' | 'charge-loop';
/** mixed: every second charger (SIM002, SIM004 …) speaks 2.0.1, the others 1.6. */
export type FleetProtocol = 'ocpp1.6' | 'ocpp2.0.1' | 'mixed';

export interface FleetOptions {
  url: string;
  count: number;
  /** OCPP version of the chargers (default ocpp1.6). */
  protocol?: FleetProtocol;
  /** Charger ids are prefix + a 3-digit number: SIM001, SIM002 … */
  prefix?: string;
  /** Number of the first charger (default 1). */
  startIndex?: number;
  /** Connectors per charger, or per charger index (0-based). */
  connectors?: number | ((index: number) => number);
  password?: string;
  /** wss://: the CA of the central system's certificate, or rejectUnauthorized false (see link.ts). */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  heartbeatIntervalSec?: number;
  meterIntervalSec?: number;
  scenario?: Scenario;
  idTags?: string[];
  /** charge-loop: seconds a connector stays free between sessions, [min, max]. */
  idleSec?: [number, number];
  /** charge-loop: seconds a session lasts, [min, max]. */
  chargeSec?: [number, number];
  /** Chargers connecting at once: a fleet that connects all together is a thundering herd. */
  startConcurrency?: number;
  maxCurrentA?: number;
  /** How UpdateFirmware goes on every charger (firmware.ts): its pace, a step that fails. */
  firmware?: FirmwareOptions;
  backoff?: BackoffOptions;
  logger?: SimLogger;
}

export interface FleetStats {
  chargers: number;
  connected: number;
  charging: number;
  sessionsStarted: number;
  sessionsCompleted: number;
  messagesSent: number;
  commandsReceived: number;
  queued: number;
  errors: number;
}

export interface Fleet {
  chargers: AnyCharger[];
  /** Resolves when every charger has booted once. */
  ready: Promise<void>;
  stats(): FleetStats;
  /** Ends running sessions (when online, within a few seconds), then closes every charger. */
  stop(): Promise<void>;
}

export const DEFAULT_ID_TAGS = ['SIMTAG0001', 'SIMTAG0002', 'SIMTAG0003', 'SIMTAG0004'];

const between = ([min, max]: [number, number]) => min + Math.random() * Math.max(0, max - min);

export function chargerId(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(3, '0')}`;
}

/** Starts `count` simulated chargers against one central system and runs a scenario on each. */
export function runFleet(options: FleetOptions): Fleet {
  const prefix = options.prefix ?? 'SIM';
  const first = options.startIndex ?? 1;
  const idTags = options.idTags?.length ? options.idTags : DEFAULT_ID_TAGS;
  const loop = { started: 0, completed: 0, errors: 0 };
  const abort = new AbortController();
  const protocolOf = (i: number) => {
    const p = options.protocol ?? 'ocpp1.6';
    return p === 'mixed' ? (i % 2 === 1 ? 'ocpp2.0.1' : 'ocpp1.6') : p;
  };
  const chargers = Array.from({ length: options.count }, (_, i) => createCharger({
    protocol: protocolOf(i),
    url: options.url,
    cpNo: chargerId(prefix, first + i),
    password: options.password,
    tls: options.tls,
    connectors: typeof options.connectors === 'function' ? options.connectors(i) : options.connectors ?? 1,
    heartbeatIntervalSec: options.heartbeatIntervalSec,
    meterIntervalSec: options.meterIntervalSec ?? 60,
    maxCurrentA: options.maxCurrentA,
    backoff: options.backoff,
    logger: options.logger,
    firmware: options.firmware,
  }));

  const chargeLoop = async (cp: AnyCharger, connectorId: number): Promise<void> => {
    // Every pause is a point where a fleet being stopped leaves the loop (the catch below).
    const pause = async (range: [number, number]) => {
      await cp.sleep(between(range) * 1000);
      if (abort.signal.aborted) throw new Error('fleet stopped');
    };
    while (!abort.signal.aborted) {
      try {
        await pause(options.idleSec ?? [5, 30]);
        if (!cp.isConnected || cp.connectorStatus(connectorId) !== 'Available') continue;
        await cp.plugIn(connectorId);
        await pause([1, 3]);
        const idTag = idTags[Math.floor(Math.random() * idTags.length)];
        const info = await cp.authorize(idTag);
        if (info.status !== 'Accepted') {
          await cp.unplug(connectorId);
          continue;
        }
        await cp.startTransaction(connectorId, idTag);
        loop.started++;
        await pause(options.chargeSec ?? [30, 120]);
        // The central system may have stopped it meanwhile (remote stop, reset).
        if (cp.hasTransaction(connectorId)) {
          await cp.stopTransaction(connectorId, 'Local');
          loop.completed++;
        }
        await pause([1, 5]);
        await cp.unplug(connectorId);
      } catch (err) {
        if (abort.signal.aborted) return;
        loop.errors++;
        options.logger?.warn?.({ cpNo: cp.cpNo, connectorId, err: String(err) }, 'charge loop step failed');
      }
    }
  };

  const booted = chargers.map((cp) => new Promise<void>((resolve) => cp.once('booted', () => resolve())));
  const ready = Promise.race([Promise.all(booted).then(() => undefined), new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve()))]);

  // A few workers take chargers in turn; one whose first attempt fails keeps retrying on its own.
  let next = 0;
  const worker = async () => {
    while (next < chargers.length && !abort.signal.aborted) {
      const cp = chargers[next++];
      try {
        await cp.start();
      } catch (err) {
        options.logger?.debug?.({ cpNo: cp.cpNo, err: String(err) }, 'first connect failed; retrying');
        cp.start({ retry: true }).catch(() => undefined);
      }
      if (options.scenario === 'charge-loop') {
        for (let c = 1; c <= cp.connectorCount; c++) void chargeLoop(cp, c);
      }
    }
  };
  for (let w = 0; w < Math.min(options.startConcurrency ?? 20, chargers.length); w++) void worker();

  return {
    chargers,
    ready,
    stats: () => {
      const stats: FleetStats = {
        chargers: chargers.length, connected: 0, charging: 0,
        sessionsStarted: loop.started, sessionsCompleted: loop.completed,
        messagesSent: 0, commandsReceived: 0, queued: 0, errors: loop.errors,
      };
      for (const cp of chargers) {
        if (cp.isConnected) stats.connected++;
        for (let c = 1; c <= cp.connectorCount; c++) if (cp.connectorStatus(c) === 'Charging') stats.charging++;
        stats.messagesSent += cp.counters.sent;
        stats.commandsReceived += cp.counters.received;
        stats.queued += cp.queued;
        stats.errors += cp.counters.errors;
      }
      return stats;
    },
    stop: async () => {
      abort.abort();
      const endSessions = chargers.map(async (cp) => {
        for (let c = 1; c <= cp.connectorCount; c++) {
          if (cp.isConnected && cp.hasTransaction(c)) await cp.stopTransaction(c, 'Local').catch(() => undefined);
        }
      });
      await Promise.race([Promise.all(endSessions), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
      await Promise.all(chargers.map((cp) => cp.stop()));
    },
  };
}
