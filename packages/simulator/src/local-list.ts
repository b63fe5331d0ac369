import type { Configuration } from './configuration.ts';

/** What the central system says of an idTag (OCPP 1.6 IdTagInfo), as Authorize answers and a local list holds it. */
export interface IdTagInfo { status: 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx'; expiryDate?: string; parentIdTag?: string }

/** One entry of SendLocalList (OCPP 1.6 §6.45): without idTagInfo a Differential removes the idTag. */
export interface AuthorizationData {
  idTag: string;
  idTagInfo?: IdTagInfo;
}

export type UpdateStatus = 'Accepted' | 'Failed' | 'NotSupported' | 'VersionMismatch';

/**
 * The charger's local authorization list (OCPP 1.6 §3.5.3, Local Auth List Management): kept across
 * reconnects and reboots, replaced by a Full update, changed entry by entry by a Differential one.
 * LocalAuthListEnabled false: NotSupported and version -1. A Differential whose version is not above
 * the held one is a VersionMismatch. `failWith` makes the next updates fail (a full store, say).
 */
export class LocalAuthList {
  version = 0;
  private readonly entries = new Map<string, IdTagInfo>();
  /** Tests: answer updates Failed (the charger could not store them). */
  failWith?: 'Failed';

  constructor(private readonly config: Configuration) {}

  get enabled(): boolean {
    return this.config.bool('LocalAuthListEnabled');
  }

  get size(): number {
    return this.entries.size;
  }

  /** GetLocalListVersion: 0 when empty, -1 when the local list is off. */
  listVersion(): number {
    if (!this.enabled) return -1;
    return this.entries.size === 0 ? 0 : this.version;
  }

  update({ listVersion, updateType, localAuthorizationList = [] }: { listVersion: number; updateType: 'Full' | 'Differential'; localAuthorizationList?: AuthorizationData[] }): UpdateStatus {
    if (!this.enabled) return 'NotSupported';
    if (this.failWith) return this.failWith;
    if (localAuthorizationList.length > this.config.int('SendLocalListMaxLength')) return 'Failed';
    if (updateType === 'Differential' && listVersion <= this.version) return 'VersionMismatch';
    const next = updateType === 'Full' ? new Map<string, IdTagInfo>() : new Map(this.entries);
    for (const { idTag, idTagInfo } of localAuthorizationList) {
      // A Full list has every entry with its idTagInfo; in a Differential, none removes it.
      if (idTagInfo) next.set(key(idTag), idTagInfo);
      else next.delete(key(idTag));
    }
    if (next.size > this.config.int('LocalAuthListMaxLength')) return 'Failed';
    this.entries.clear();
    for (const [k, v] of next) this.entries.set(k, v);
    this.version = listVersion;
    return 'Accepted';
  }

  /** The entry for an idTag (case-insensitive, OCPP 1.6 §7.11), when the list is on. An expired Accepted entry is Expired. */
  lookup(idTag: string, now = Date.now()): IdTagInfo | undefined {
    if (!this.enabled) return undefined;
    const info = this.entries.get(key(idTag));
    if (info?.status === 'Accepted' && info.expiryDate && Date.parse(info.expiryDate) < now) return { ...info, status: 'Expired' };
    return info;
  }
}

const key = (idTag: string) => idTag.toUpperCase();
