import type { IdTagInfo } from './local-list.ts';
import type { Configuration } from './configuration.ts';
import type { ConnectorStatus } from './connector.ts';

export type ReservationStatus = 'Accepted' | 'Faulted' | 'Occupied' | 'Rejected' | 'Unavailable';

/** ReserveNow's parameters (OCPP 1.6 §6.43). */
export interface ReserveRequest {
  connectorId: number;
  expiryDate: string;
  idTag: string;
  parentIdTag?: string;
  reservationId: number;
}

interface Held extends ReserveRequest {
  timer: NodeJS.Timeout;
}

/** What the reservations need of the charger (SimulatedCharger). */
export interface ReservationHost {
  readonly config: Configuration;
  readonly connectorCount: number;
  connectorStatus(connectorId: number): ConnectorStatus;
  hasTransaction(connectorId: number): boolean;
  /** Sends a StatusNotification of the connector's new status. */
  setStatus(connectorId: number, status: ConnectorStatus): Promise<unknown>;
  authorize(idTag: string): Promise<IdTagInfo>;
  now(): number;
}

const same = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toUpperCase() === b.toUpperCase();

/**
 * The charger's reservations (OCPP 1.6 §3.11, Reservation profile), as a real charger keeps them:
 * ReserveNow answers Accepted, Faulted, Occupied, Unavailable or Rejected (connector 0 without
 * ReserveConnectorZeroSupported, a connector it does not have); a reserved connector says Reserved and
 * starts only for its idTag, or an idTag whose parentIdTag (its Authorize answer) is the reservation's;
 * that start carries the reservationId and ends the reservation. At expiryDate it ends (Available);
 * CancelReservation of an unknown id is Rejected. A reservation of connector 0 holds one free connector.
 */
export class Reservations {
  private readonly held = new Map<number, Held>();

  constructor(private readonly cp: ReservationHost) {}

  /** How many are held: none, and a start goes without a look (and without a wait). */
  get size(): number {
    return this.held.size;
  }

  /** The open reservations, for tests and the CLI. */
  list(): ReserveRequest[] {
    return [...this.held.values()].map(({ timer: _t, ...r }) => r);
  }

  reserve(r: ReserveRequest): ReservationStatus {
    const { connectorId } = r;
    if (!Number.isInteger(connectorId) || connectorId < 0 || connectorId > this.cp.connectorCount) return 'Rejected';
    if (connectorId === 0 && !this.cp.config.bool('ReserveConnectorZeroSupported')) return 'Rejected';
    // The same id again replaces the reservation it names (OCPP 1.6 §5.13).
    const previous = this.held.get(r.reservationId);
    if (previous) this.end(previous, false);
    const status = connectorId === 0 ? this.chargerStatus() : this.connectorAnswer(connectorId);
    if (status !== 'Accepted') {
      if (previous) this.hold(previous);
      return status;
    }
    this.hold(r);
    if (connectorId > 0) void this.cp.setStatus(connectorId, 'Reserved').catch(() => undefined);
    return 'Accepted';
  }

  cancel(reservationId: number): 'Accepted' | 'Rejected' {
    const r = this.held.get(reservationId);
    if (!r) return 'Rejected';
    this.end(r, true);
    return 'Accepted';
  }

  /** The reservation a specific connector is held by, if any. */
  onConnector(connectorId: number): ReserveRequest | undefined {
    return [...this.held.values()].find((r) => r.connectorId === connectorId);
  }

  /**
   * Before a start of idTag on the connector: the reservation it uses (ended now, its id goes with the
   * StartTransaction), none when nothing is reserved for it; throws when the connector is held for another.
   */
  async claim(connectorId: number, idTag: string): Promise<number | undefined> {
    const own = (r: Held) => same(r.idTag, idTag);
    let r = [...this.held.values()].find((h) => own(h) && (h.connectorId === connectorId || h.connectorId === 0));
    const blocking = this.blocking(connectorId, idTag);
    if (!r && blocking.some((h) => h.parentIdTag)) {
      // Another card of the same holder: the central system's answer names its parent.
      const parent = (await this.cp.authorize(idTag)).parentIdTag;
      r = blocking.find((h) => same(h.parentIdTag, parent));
    }
    if (r) {
      this.end(r, false);
      return r.reservationId;
    }
    if (blocking.length) throw new Error(`connector ${connectorId} is reserved for another idTag`);
    return undefined;
  }

  /** Ends every reservation (a reboot keeps none in this simulator). */
  clear(): void {
    for (const r of this.held.values()) clearTimeout(r.timer);
    this.held.clear();
  }

  /** Reservations that keep another idTag from the connector: its own, or charger-wide ones taking the last free connectors. */
  private blocking(connectorId: number, idTag: string): Held[] {
    const others = [...this.held.values()].filter((h) => !same(h.idTag, idTag));
    const mine = others.filter((h) => h.connectorId === connectorId);
    if (mine.length) return mine;
    const anyConnector = others.filter((h) => h.connectorId === 0);
    return anyConnector.length && this.freeConnectors().length <= anyConnector.length ? anyConnector : [];
  }

  private connectorAnswer(connectorId: number): ReservationStatus {
    const status = this.cp.connectorStatus(connectorId);
    if (status === 'Faulted') return 'Faulted';
    if (status === 'Unavailable') return 'Unavailable';
    return status === 'Available' && !this.cp.hasTransaction(connectorId) && !this.onConnector(connectorId) ? 'Accepted' : 'Occupied';
  }

  /** Connector 0: accepted while more connectors are free than charger-wide reservations already hold. */
  private chargerStatus(): ReservationStatus {
    const statuses = Array.from({ length: this.cp.connectorCount }, (_, i) => this.cp.connectorStatus(i + 1));
    if (statuses.every((s) => s === 'Faulted')) return 'Faulted';
    if (statuses.every((s) => s === 'Unavailable' || s === 'Faulted')) return 'Unavailable';
    const charger = [...this.held.values()].filter((h) => h.connectorId === 0).length;
    return this.freeConnectors().length > charger ? 'Accepted' : 'Occupied';
  }

  private freeConnectors(): number[] {
    return Array.from({ length: this.cp.connectorCount }, (_, i) => i + 1)
      .filter((id) => this.cp.connectorStatus(id) === 'Available' && !this.cp.hasTransaction(id) && !this.onConnector(id));
  }

  private hold(r: ReserveRequest): void {
    const ms = Math.max(0, Date.parse(r.expiryDate) - this.cp.now());
    const held: Held = { ...r, timer: setTimeout(() => this.end(held, true), Math.min(ms, 2 ** 31 - 1)) };
    held.timer.unref?.();
    this.held.set(r.reservationId, held);
  }

  /** Ends a reservation; freed: the connector it held is Available again (expiry, cancel). */
  private end(r: Held, freed: boolean): void {
    clearTimeout(r.timer);
    this.held.delete(r.reservationId);
    if (freed && r.connectorId > 0 && this.cp.connectorStatus(r.connectorId) === 'Reserved') {
      void this.cp.setStatus(r.connectorId, 'Available').catch(() => undefined);
    }
  }
}
