import { EventEmitter } from 'node:events';

/** A record written through the resource engine, published after its transaction committed. */
export interface ResourceChange {
  key: string;
  action: 'CREATE' | 'UPDATE' | 'DELETE';
  id: number;
  /** The form fields the write set (write-only ones included, their values not). */
  changed: string[];
}

/** A charger-initiated OCPP message, published after its rows committed and before it is answered. */
export interface ChargerMessage {
  cpId: number;
  locId: number;
  action: string;
  params: any;
  response: Record<string, unknown>;
}

/** A charger's connection opened or closed on this node. */
export interface ChargerPresence {
  cpId: number;
  locId: number;
  online: boolean;
}

/** A session stopped at its planned end (ocpp/planned-stops.ts): the RemoteStopTransaction sent and the outcome. */
export interface PlannedStopSent {
  cpId: number;
  tranId: number;
  outcome: unknown;
}

interface BusEvents {
  resourceChanged: [ResourceChange];
  chargerMessage: [ChargerMessage];
  chargerPresence: [ChargerPresence];
  plannedStopSent: [PlannedStopSent];
}

/**
 * Events between the parts of the server (the engine tells the OCPP central system that a charger
 * was disabled, say) without one importing the other. In-process for one node; a Redis-backed bus
 * takes its place when several nodes share chargers.
 */
export class Bus extends EventEmitter<BusEvents> {}
