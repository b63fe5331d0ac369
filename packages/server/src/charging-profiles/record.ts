import type { FastifyBaseLogger } from 'fastify';
import type { ChargerMessage } from '../bus/index.ts';
import type { Database } from '../db/client.ts';
import type { CommandAction } from '../ocpp/commands.ts';
import { LMS_STACK_LEVEL } from './profile.ts';

/**
 * Keeps cp_charging_profiles as the chargers' installed profiles that the server set (issue 29):
 * the dispatcher tells every accepted command (CommandDispatcher.onAccepted), whoever sent it (load
 * management, the portal, a remote start with a profile); the charger's own messages end TxProfiles.
 */
export class ProfileRecorder {
  constructor(private readonly db: Database, private readonly log: FastifyBaseLogger) {}

  /** Never throws: the command went out either way, and load management does not wait for it. */
  async onAccepted(cpId: number, action: CommandAction, params: Record<string, any>): Promise<void> {
    try {
      if (action === 'SetChargingProfile') await this.set(cpId, params.connectorId, params.csChargingProfiles);
      else if (action === 'RemoteStartTransaction' && params.chargingProfile && params.connectorId !== undefined) await this.set(cpId, params.connectorId, params.chargingProfile);
      else if (action === 'ClearChargingProfile') await this.clear(cpId, params);
    } catch (err) {
      this.log.error({ err, cpId, action }, 'Charging profile not recorded');
    }
  }

  /** Transactions end their TxProfiles; one starting takes the TxProfile a remote start brought. */
  async onMessage(m: ChargerMessage): Promise<void> {
    try {
      if (m.action === 'StartTransaction' && typeof m.response.transactionId === 'number') {
        await this.db.query(
          `UPDATE cp_charging_profiles SET transaction_id = $3
            WHERE cp_id = $1 AND connector_id = $2 AND purpose = 'TxProfile' AND transaction_id IS NULL`,
          [m.cpId, m.params.connectorId, m.response.transactionId],
        );
      } else if (m.action === 'StopTransaction') {
        // A TxProfile lives as long as its transaction (OCPP 1.6 §3.13.1), also one recorded without its id.
        await this.db.query(
          `DELETE FROM cp_charging_profiles
            WHERE cp_id = $1 AND purpose = 'TxProfile'
              AND (transaction_id = $2 OR connector_id = (SELECT connector_id FROM cp_sessions WHERE cp_id = $1 AND tran_id = $2
                                                           ORDER BY session_id DESC LIMIT 1))`,
          [m.cpId, m.params.transactionId],
        );
      }
    } catch (err) {
      this.log.error({ err, cpId: m.cpId, action: m.action }, 'Charging profiles not updated');
    }
  }

  /** A profile of the same id, or of the same connector, purpose and stack level, is replaced (OCPP 1.6 §5.16). */
  private async set(cpId: number, connectorId: number, p: Record<string, any>): Promise<void> {
    const purpose = String(p.chargingProfilePurpose);
    // A remote start's TxProfile goes with the transaction about to start (StartTransaction fills it in if not yet running).
    const running = purpose === 'TxProfile' && p.transactionId === undefined;
    await this.db.tx(async (sql) => {
      await sql.query(
        `DELETE FROM cp_charging_profiles WHERE cp_id = $1 AND (charging_profile_id = $2 OR (connector_id = $3 AND purpose = $4 AND stack_level = $5))`,
        [cpId, p.chargingProfileId, connectorId, purpose, p.stackLevel],
      );
      await sql.query(
        `INSERT INTO cp_charging_profiles (cp_id, connector_id, charging_profile_id, purpose, stack_level, kind, recurrency, valid_from, valid_to,
                                           transaction_id, schedule, source)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
                 COALESCE($10, CASE WHEN $13 THEN (SELECT tran_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = $2 AND session_end_time IS NULL
                                                    ORDER BY session_id DESC LIMIT 1) END),
                 $11, $12)`,
        [cpId, connectorId, p.chargingProfileId, purpose, p.stackLevel, p.chargingProfileKind, p.recurrencyKind ?? null,
          p.validFrom ?? null, p.validTo ?? null, p.transactionId ?? null, JSON.stringify(p.chargingSchedule),
          p.stackLevel === LMS_STACK_LEVEL ? 'lms' : 'manual', running],
      );
    });
  }

  /** By id (the other criteria then do not matter), else every profile matching all the criteria given (OCPP 1.6 §5.5). */
  private async clear(cpId: number, c: { id?: number; connectorId?: number; chargingProfilePurpose?: string; stackLevel?: number }): Promise<void> {
    if (c.id !== undefined) {
      await this.db.query(`DELETE FROM cp_charging_profiles WHERE cp_id = $1 AND charging_profile_id = $2`, [cpId, c.id]);
      return;
    }
    await this.db.query(
      `DELETE FROM cp_charging_profiles WHERE cp_id = $1 AND ($2::int IS NULL OR connector_id = $2)
          AND ($3::text IS NULL OR purpose = $3) AND ($4::int IS NULL OR stack_level = $4)`,
      [cpId, c.connectorId ?? null, c.chargingProfilePurpose ?? null, c.stackLevel ?? null],
    );
  }
}
