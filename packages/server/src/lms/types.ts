/**
 * The allocator's input and output: one site's load at one moment. Currents are in amperes.
 * The allocator (allocator.ts) is a pure function of this; the runtime (runtime.ts) builds the
 * input from the database and the chargers' messages and turns the output into charging profiles.
 */
import type { LmsMode } from '@ev/core';

export type { LmsMode };

export interface ZoneLimits {
  zoneId: number;
  /** What the zone may draw in all: zone_max_available_current, never above max_physical_current_limit. */
  maxAvailable: number;
  /**
   * Each charger's bounds in this zone (zone_lms_profiles). In QUEUEING min equals max; the
   * allocator then takes each charger's own max as its min (a 16 A charger in a 32 A zone gets 16 A).
   */
  minPerCharger: number;
  maxPerCharger: number;
}

export interface ChargerLoad {
  cpId: number;
  zoneId: number;
  /** The charger wants current: a car is plugged in (Preparing, Charging, SuspendedEV/EVSE or a running transaction). */
  wants: boolean;
  /** When it began to want current (ms since epoch): the queue order, ties broken by cpId. */
  since: number;
  /** The charger's own ceiling when lower than the zone's maxPerCharger (a 16 A charger in a 32 A zone). */
  maxCurrent?: number;
  /** Last measured current (A), if known. */
  measured?: number;
  /**
   * Not under our control: it rejected or did not answer its last limit. It is counted as drawing
   * its maximum (or what it is measured to draw, if more) and gets no allocation of its own.
   */
  uncontrolled?: boolean;
}

export interface SiteLoad {
  mode: LmsMode;
  /** A ceiling over all zones of the site, if the site has one beyond its zones' own. */
  siteLimit?: number;
  zones: ZoneLimits[];
  chargers: ChargerLoad[];
}

export type Allocation =
  | { cpId: number; state: 'charging'; current: number }
  /** position: 1 = next to start, per zone; chargers that can never charge (max below min) come last. */
  | { cpId: number; state: 'queueing'; position: number }
  /** Wants nothing (no car), or its zone is not in `zones` (not managed): no limit of ours applies beyond the safe default. */
  | { cpId: number; state: 'idle' }
  | { cpId: number; state: 'uncontrolled'; counted: number };
