/**
 * What this process remembers of 2.0.1 transactions so that a TransactionEvent Updated, the 2.0.1 counterpart
 * of a MeterValues, costs no database read (bench/README.md, OCPP load): each transaction's session and Started
 * events still waiting for an EVSE, per charger and transactionId; the highest seqNo seen and each connector's
 * status as last set, per connection (a charger that was on another node meanwhile starts afresh). A miss reads
 * the database. Bounded: the entries used least recently go first.
 */

export interface KnownSession { sessionId: number; tranId: number; connectorId: number; idTag: string; idTagStatus: string | null }

/** A Started that named no EVSE (OCPP 2.0.1 E01 TxStartPoint Authorized): its idToken and start. */
export interface WaitingStart { idToken: string | null; timestamp: string; reservationId?: number }

class Bounded<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

const key = (cpId: number, id: string | number) => `${cpId}\u0000${id}`;

const sessions = new Bounded<KnownSession>(20_000);
const waiting = new Bounded<WaitingStart>(1_000);
const perConnection = new WeakMap<object, { highestSeqNo: Bounded<number>; statuses: Map<number, string> }>();
function connection(conn: object) {
  let c = perConnection.get(conn);
  if (!c) perConnection.set(conn, (c = { highestSeqNo: new Bounded(64), statuses: new Map() }));
  return c;
}

export const knownSession = (cpId: number, transactionId: string) => sessions.get(key(cpId, transactionId));
export const rememberSession = (cpId: number, transactionId: string, s: KnownSession) => sessions.set(key(cpId, transactionId), s);
export const forgetSession = (cpId: number, transactionId: string) => sessions.delete(key(cpId, transactionId));

/**
 * Whether the event is surely new: its seqNo is above the highest this process saw for the transaction. An
 * event it cannot vouch for (the first seen here, or a seqNo not above) may be a repeat: the caller checks the log.
 */
export function surelyNew(conn: object, transactionId: string, seqNo: number): boolean {
  const { highestSeqNo } = connection(conn);
  const highest = highestSeqNo.get(transactionId);
  if (highest !== undefined && seqNo <= highest) return false;
  highestSeqNo.set(transactionId, seqNo);
  return highest !== undefined;
}

/** Whether a connector's status differs from the one last set through this memory (then it is remembered). */
export function statusChanged(conn: object, connectorId: number, status: string): boolean {
  const { statuses } = connection(conn);
  if (statuses.get(connectorId) === status) return false;
  statuses.set(connectorId, status);
  return true;
}
/** A status reported another way (a StatusNotification, perhaps not applied: an older one): the next TransactionEvent's state is applied. */
export const statusReported = (conn: object, connectorId: number) => connection(conn).statuses.delete(connectorId);

export const waitingStart = (cpId: number, transactionId: string) => waiting.get(key(cpId, transactionId));
export const waitForEvse = (cpId: number, transactionId: string, start: WaitingStart) => waiting.set(key(cpId, transactionId), start);
export const startNoLongerWaiting = (cpId: number, transactionId: string) => waiting.delete(key(cpId, transactionId));
