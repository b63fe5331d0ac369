import { SimulatedCharger } from './charger.ts';
import type { FirmwareOptions } from './firmware.ts';
import type { SimulatedChargerOptions } from './link.ts';
import { SimulatedCharger201 } from './v201/simulated-charger.ts';

export type ChargerOptions = SimulatedChargerOptions & { firmware?: FirmwareOptions };

/** A charger of either protocol: both share the public shape scenarios use (plugIn, startTransaction …). */
export type AnyCharger = SimulatedCharger | SimulatedCharger201;

/** The charger for options.protocol: OCPP 1.6-J (default) or 2.0.1. */
export function createCharger(options: ChargerOptions & { protocol: 'ocpp2.0.1' }): SimulatedCharger201;
export function createCharger(options: ChargerOptions & { protocol?: 'ocpp1.6' }): SimulatedCharger;
export function createCharger(options: ChargerOptions): AnyCharger;
export function createCharger(options: ChargerOptions): AnyCharger {
  return options.protocol === 'ocpp2.0.1' ? new SimulatedCharger201(options) : new SimulatedCharger(options);
}
