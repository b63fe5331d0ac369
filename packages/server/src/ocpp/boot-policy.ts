import type { BootPolicy } from '@ev/core';
import { createRPCError } from 'ocpp-rpc';
import type { Charger } from './connection.ts';
import type { ChargerContext, HandlerHost } from './handler-types.ts';

/**
 * How a BootNotification is answered, per charger (cps.boot_policy, issue 31; OCPP 2.0.1 B01-B03, 1.6 §4.2):
 * accept (Accepted at once), provision (Pending until its configuration was read: device-model/provision.ts),
 * reject (Rejected). A station that is not accepted gets CALLERROR SecurityError for anything but a boot (and,
 * while Pending, the NotifyReport it was asked for); no command goes to a rejected one. docs/ocpp-201.md.
 */
export type BootState = 'Accepted' | 'Pending' | 'Rejected';

/** A Pending station boots again after this many seconds, unless the central system triggers it sooner. */
export const PENDING_INTERVAL_S = 15;
/** A Rejected station retries no sooner than this. */
export const REJECTED_INTERVAL_S = 300;

/** Per connection (its Charger object): the state its last boot left it in, or what cps said before any boot on it. */
const states = new WeakMap<Charger, BootState>();
/** Connections whose read since a Pending boot ended (done, failed or given up): their boots are accepted. */
const readOnConnection = new WeakSet<Charger>();

/** A Pending station may send these: its boot, and the report parts the central system asked for. */
const WHILE_PENDING = new Set(['BootNotification', 'NotifyReport']);

/** The answer a BootNotification gets, per the charger's policy; recorded as the connection's state and in cps.boot_status. */
export async function bootAnswer(cs: HandlerHost, charger: Charger): Promise<{ status: BootState; interval: number }> {
  const [row] = await cs.db.query<{ heartbeat_interval: number; boot_policy: BootPolicy; boot_status: BootState | null; has_read: boolean }>(
    `SELECT c.heartbeat_interval, c.boot_policy, c.boot_status,
            CASE WHEN c.boot_policy <> 'provision' THEN false
                 WHEN $2 = 'ocpp2.0.1' THEN EXISTS (SELECT 1 FROM cp_device_reports r WHERE r.cp_id = c.cp_id AND r.completed_at IS NOT NULL)
                 ELSE EXISTS (SELECT 1 FROM cp_config_keys k WHERE k.cp_id = c.cp_id) END AS has_read
       FROM cps c WHERE c.cp_id = $1`,
    [charger.cpId, charger.protocol ?? 'ocpp1.6'],
  );
  // provision reads a charger when nothing read from it is stored, once per connection (a read that failed is
  // not retried at every boot: the station is accepted without it).
  const status: BootState = row?.boot_policy === 'reject' ? 'Rejected'
    : row?.boot_policy === 'provision' && !row.has_read && !readOnConnection.has(charger) ? 'Pending'
    : 'Accepted';
  states.set(charger, status);
  const stored = status === 'Accepted' ? null : status;
  if (row && (row.boot_status ?? null) !== stored) await cs.db.query(`UPDATE cps SET boot_status = $2 WHERE cp_id = $1`, [charger.cpId, stored]);
  const interval = status === 'Pending' ? PENDING_INTERVAL_S
    : status === 'Rejected' ? REJECTED_INTERVAL_S
    : charger.heartbeatInterval ?? row?.heartbeat_interval ?? 30;
  return { status, interval };
}

/**
 * The state a new connection starts in before any boot on it, from the cps row its sign-in read: the last boot's
 * answer, or Rejected under the reject policy.
 */
export function startingBootState(charger: Charger, policy: BootPolicy, lastAnswer: BootState | null): BootState {
  const state: BootState = policy === 'reject' ? 'Rejected' : lastAnswer ?? 'Accepted';
  states.set(charger, state);
  return state;
}

/** The read a Pending boot asked for has ended: the connection's next boot is accepted. */
export function readDone(charger: Charger): void {
  readOnConnection.add(charger);
}

/**
 * Refuses a charger-initiated message of a station that is not accepted (CALLERROR SecurityError, nothing
 * handled or logged). Before any boot on a connection its state is the one its sign-in set (startingBootState);
 * afterwards its boots keep it current.
 */
export function refuseUnlessAccepted(cs: HandlerHost, conn: ChargerContext, action: string): Promise<void> | undefined {
  if (action === 'BootNotification') return undefined;
  const state = states.get(conn.charger);
  // Known (set at sign-in): decided at once, with no promise on every message's way.
  if (state) return refuseIn(state, action);
  // A connection not made through the sign-in (the tester's charger): read what the sign-in would have.
  return cs.db
    .query<{ boot_policy: BootPolicy; boot_status: BootState | null }>(`SELECT boot_policy, boot_status FROM cps WHERE cp_id = $1`, [conn.charger.cpId])
    .then(([row]) => refuseIn(startingBootState(conn.charger, row?.boot_policy ?? 'accept', row?.boot_status ?? null), action));
}

function refuseIn(state: BootState, action: string): undefined {
  if (state === 'Accepted' || (state === 'Pending' && WHILE_PENDING.has(action))) return undefined;
  throw createRPCError('SecurityError', state === 'Rejected'
    ? 'The central system rejected this charging station: only BootNotification is answered'
    : 'Registration pending: only BootNotification and the messages the central system asked for are answered');
}

/**
 * Why a command must not go to this connection, or null: nothing to a rejected station (1.6 §4.2, 2.0.1 B03),
 * no remote start or stop to a pending one (1.6 §4.2, 2.0.1 B02). Reading and setting its configuration is
 * what Pending is for.
 */
export function commandRefusal(charger: Charger, action: string): string | null {
  const state = states.get(charger);
  if (state === 'Rejected') return 'The charger\'s boot was rejected: no command is sent to it';
  if (state === 'Pending' && (action === 'RemoteStartTransaction' || action === 'RemoteStopTransaction')) {
    return 'The charger\'s boot is pending (its configuration is being read): no remote start or stop yet';
  }
  return null;
}
