import { storedText } from '@ev/core';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandAction, CommandOutcome } from '../ocpp/commands.ts';
import type { LmsLog } from './log.ts';
import type { ManagedCharger, ManagedSite } from './site-model.ts';

/** Our profiles: one stack level, one id per purpose (and per connector for TxProfiles) so a new one replaces the old. */
export const STACK_LEVEL = 1;
export const DEFAULT_PROFILE_ID = 1000;
/** Plus the connector id. */
export const TX_PROFILE_ID = 2000;
/** A limit change waits at most this long for the charger's answer; no answer = uncontrolled. */
const COMMAND_TIMEOUT_MS = 10_000;
/** An uncontrolled charger is offered its limit again this often. */
const RETRY_MS = 60_000;

export type Send = (cpId: number, action: CommandAction, params: Record<string, unknown>, opts: { timeoutMs: number; logInBackground: boolean }) => Promise<CommandOutcome>;

interface ProfileChange {
  connectorId: number;
  purpose: 'TxDefaultProfile' | 'TxProfile';
  limit: number;
  tranId?: number;
}

export interface Plan {
  charger: ManagedCharger;
  /** The charger's new total limit (A). */
  total: number;
  changes: ProfileChange[];
}

const tenth = (a: number) => Math.floor(a * 10 + 1e-9) / 10;

function profileParams(p: ProfileChange): Record<string, unknown> {
  return {
    connectorId: p.connectorId,
    csChargingProfiles: {
      chargingProfileId: p.purpose === 'TxProfile' ? TX_PROFILE_ID + p.connectorId : DEFAULT_PROFILE_ID,
      ...(p.tranId !== undefined ? { transactionId: p.tranId } : {}),
      stackLevel: STACK_LEVEL,
      chargingProfilePurpose: p.purpose,
      chargingProfileKind: 'Relative',
      chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: p.limit }] },
    },
  };
}

/** For each reachable managed charger, the profiles that differ from what it last accepted. */
export function planLimits(site: ManagedSite): Plan[] {
  const out: Plan[] = [];
  for (const c of site.chargers.values()) {
    const a = c.allocation;
    if (c.zoneId === null || !c.online || !a || a.state === 'uncontrolled') continue;
    const total = a.state === 'charging' ? a.current : 0;
    const changes: ProfileChange[] = [];
    if (c.transactions.size) {
      // Two sessions on one charger share its allocation.
      const each = tenth(total / c.transactions.size);
      for (const tx of c.transactions.values()) {
        if ((c.sentTx.get(tx.tranId) ?? c.sentDefault) !== each) {
          changes.push({ connectorId: tx.connectorId, purpose: 'TxProfile', limit: each, tranId: tx.tranId });
        }
      }
    } else if (c.sentDefault !== total) {
      changes.push({ connectorId: 0, purpose: 'TxDefaultProfile', limit: total });
    }
    if (changes.length) out.push({ charger: c, total, changes });
  }
  return out;
}

/**
 * Tells chargers their limits with SetChargingProfile and records on each charger what it accepted;
 * one that rejects or does not answer is marked uncontrolled until its retry is due.
 */
export class LimitSender {
  constructor(
    private readonly send: Send,
    private readonly log: LmsLog,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Sends the plans in parallel (one charger's profiles in order); false when any charger failed. */
  async sendAll(site: ManagedSite, plans: Plan[]): Promise<boolean> {
    const results = await Promise.all(plans.map((p) => this.sendPlan(site, p)));
    return results.every(Boolean);
  }

  /** Clears our profiles from a charger that left load management. */
  async clear(cpId: number): Promise<void> {
    for (const purpose of ['TxDefaultProfile', 'TxProfile']) {
      await this.send(cpId, 'ClearChargingProfile', { chargingProfilePurpose: purpose, stackLevel: STACK_LEVEL }, { timeoutMs: COMMAND_TIMEOUT_MS, logInBackground: true });
    }
  }

  private async sendPlan(site: ManagedSite, plan: Plan): Promise<boolean> {
    const c = plan.charger;
    for (const change of plan.changes) {
      let outcome: CommandOutcome;
      try {
        outcome = await this.send(c.cpId, 'SetChargingProfile', profileParams(change), { timeoutMs: COMMAND_TIMEOUT_MS, logInBackground: true });
      } catch (err) {
        outcome = { status: 'error', errorCode: 0, message: (err as Error).message };
      }
      const what = `${change.purpose} ${change.limit} A${change.tranId !== undefined ? ` #${change.tranId}` : ''}`;
      if (outcome.status === 'success') {
        if (change.purpose === 'TxProfile') c.sentTx.set(change.tranId!, change.limit);
        else c.sentDefault = change.limit;
        c.profileStatus = 'Accepted';
        this.log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'info', kind: 'profile_accepted', message: storedText('msg.log.lms.profile_accepted', { what }) });
        continue;
      }
      // The transaction ended while its limit was on the way: nothing to hold against the charger.
      if (change.tranId !== undefined && !c.transactions.has(change.tranId)) continue;
      c.uncontrolled = true;
      c.retryAt = Date.now() + RETRY_MS;
      c.profileStatus = outcome.result?.status ?? 'NoAnswer';
      c.sentDefault = null;
      c.sentTx.clear();
      this.log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'warn', kind: 'profile_failed',
        message: storedText('msg.log.lms.profile_failed', { what, reason: outcome.message ?? '' }) });
      this.logger.warn({ cpNo: c.cpNo, errorCode: outcome.errorCode, reason: outcome.message }, 'LMS limit not accepted: charger counted at its maximum');
      return false;
    }
    return true;
  }
}
