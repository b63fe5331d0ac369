/** Closes for garbage from one address in a window before it is refused (OCPP_GARBAGE_CLOSES_PER_ADDRESS). */
export const DEFAULT_GARBAGE_CLOSES_PER_ADDRESS = 30;
/** Failed charger sign-ins (unknown charger, no or wrong password) from one address in a window before it is refused (OCPP_SIGN_IN_FAILURES_PER_ADDRESS). */
export const DEFAULT_SIGN_IN_FAILURES_PER_ADDRESS = 20;
/** Abusive closes from one address are counted over this window. */
const WINDOW_MS = 60_000;
/** An address over the limit is refused this long. */
export const ADDRESS_REFUSAL_MS = 60_000;
/** Addresses counted at most; beyond it, counts from past windows are dropped. */
const MAX_TRACKED = 10_000;

/**
 * Source addresses whose connections keep being closed for garbage (too many malformed messages, or
 * unparsable frames in a row). The per-chargeBoxId cool-down stops one charger reconnecting; a flood
 * that comes back under ever new chargeBoxIds costs an upgrade, a sign-in and two state writes per
 * connection, so past `limit` such closes in a minute its address is refused at the upgrade, which
 * costs next to nothing. A site whose chargers share an address behind NAT needs many broken chargers to
 * reach the limit: each is cooled down 30 s after its close, so two closes a minute at most.
 * Behind a load balancer the address is the forwarded one (TRUST_PROXY); `limit` 0 turns this off.
 * A second instance counts failed sign-ins the same way (closed() per failure): password guessing is
 * refused with 429 at the upgrade before it costs a scrypt per guess (charger-credentials, issue 29).
 */
export class AbusiveAddresses {
  private readonly closes = new Map<string, { count: number; since: number }>();
  private readonly refusedUntil = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Counts a connection from `address` closed for garbage; true when that made the address refused. */
  closed(address: string, now = Date.now()): boolean {
    if (!this.limit || !address) return false;
    if (this.closes.size >= MAX_TRACKED) this.forgetOld(now);
    let c = this.closes.get(address);
    if (!c || now - c.since >= WINDOW_MS) this.closes.set(address, (c = { count: 0, since: now }));
    if (++c.count <= this.limit) return false;
    this.closes.delete(address);
    this.refusedUntil.set(address, now + ADDRESS_REFUSAL_MS);
    return true;
  }

  /** Whether a new connection from `address` is refused. */
  refused(address: string, now = Date.now()): boolean {
    const until = this.refusedUntil.get(address);
    if (until === undefined) return false;
    if (now < until) return true;
    this.refusedUntil.delete(address);
    return false;
  }

  private forgetOld(now: number): void {
    for (const [address, c] of this.closes) if (now - c.since >= WINDOW_MS) this.closes.delete(address);
    for (const [address, until] of this.refusedUntil) if (now >= until) this.refusedUntil.delete(address);
  }
}
