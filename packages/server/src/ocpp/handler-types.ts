import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../bus/index.ts';
import type { Database } from '../db/client.ts';
import type { RemoteStarts } from './authorization.ts';
import type { BootRow, MeterRow, RequestRow, SessionProgress, WriteSet } from './batch-writer.ts';
import type { ChargerConnection } from './connection.ts';
import type { SummarisedLog } from './summarised-log.ts';

/**
 * What the handlers of charger-initiated messages need from the central system. CentralSystem
 * satisfies it; the handlers depend on this and not on central-system.ts, which registers them.
 */
export interface HandlerHost {
  readonly db: Database;
  readonly writer: { write(set: WriteSet): Promise<void> };
  readonly log: FastifyBaseLogger;
  readonly failureLog: SummarisedLog;
  readonly remoteStarts: RemoteStarts;
  readonly bus: Bus;
}

/**
 * What a handler needs of the charger a message came from: its live connection, or (for a
 * message the portal's tester injects for a charger that is not connected) a stand-in for it.
 */
export type ChargerContext = Pick<ChargerConnection, 'charger' | 'touchDue' | 'rememberTransaction' | 'knownTransaction' | 'forgetTransaction'>;

export interface HandlerContext {
  cs: HandlerHost;
  conn: ChargerContext;
}

/** What a handler answers and what it asks to be written with the message's cp_requests row. */
export interface Handled {
  response: Record<string, unknown>;
  /** Fields of the cp_requests row beyond the defaults (charger, connector, message id, payloads). */
  row?: Partial<RequestRow>;
  meters?: MeterRow[];
  progress?: SessionProgress[];
  /** The charger's details from a BootNotification, written with the same commit. */
  boot?: BootRow;
  /**
   * What the bus tells load management and the live screens, when not the message itself: the OCPP 1.6
   * messages a 2.0.1 one amounts to (a TransactionEvent Started is a StartTransaction), so they know one vocabulary.
   */
  events?: { action: string; params: any; response: Record<string, unknown> }[];
}

export type MessageHandler = (ctx: HandlerContext, params: any) => Promise<Handled>;
