/**
 * What a charger's or connector's status means for an operator: the one rule of what is shown as its
 * current status (spec part 1 §4), and which remote actions can work in it. The server's SQL
 * (ocpp/shown-status.ts), the dashboards, the chargers list and view and the Remote actions tab follow it.
 */
import { CHARGING_STATUSES } from './options.ts';
import { ERROR_CODES } from './errors.ts';

/** Shown while the charger is not connected: whatever it last reported is no longer known to be true. */
export const OFFLINE = 'Offline';
/** Shown for a connected charger's connector that has not reported a status. */
export const NO_STATUS = 'N/A';

/** The current status: Offline while the charger is not connected, N/A when none was reported, else the reported one. */
export function shownStatus(online: boolean, reported: string | null | undefined): string {
  if (!online) return OFFLINE;
  return reported ? reported : NO_STATUS;
}

/**
 * Statuses in which a remote start can work (OCPP 1.6 §4.9 ChargePointStatus): Available, and Preparing
 * (a cable or card is in, no transaction yet). A session runs in Charging and both Suspended states;
 * Finishing waits for the previous driver to unplug; Reserved takes only the reservation's idTag;
 * Unavailable and Faulted refuse it.
 */
export const STARTABLE_STATUSES: readonly string[] = ['Available', 'Preparing'];

export const canStartIn = (status: string | null | undefined): boolean => !!status && STARTABLE_STATUSES.includes(status);

/**
 * Why a remote start cannot work on a connector of a connected charger in this status, as the spec's code:
 * 10016 while a session runs on it, 10015 in the other statuses where no start can work; null when it can,
 * or when the charger never reported the connector (the charger judges).
 */
export function startRefusal(status: string | null | undefined): number | null {
  if (!status || canStartIn(status)) return null;
  return CHARGING_STATUSES.includes(status) ? ERROR_CODES.CONNECTOR_STATUS : ERROR_CODES.PLUG_NOT_READY;
}
