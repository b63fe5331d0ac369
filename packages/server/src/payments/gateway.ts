import type { Config } from '../config.ts';

/**
 * The payment gateway RSR fees are charged through. One HTTP gateway (PAYMENT_GATEWAY_URL,
 * PAYMENT_GATEWAY_KEY, PAYMENT_GATEWAY_TIMEOUT_MS); without it payments are settled by hand.
 */

/** What is charged: one attempt, named by its requestReference (never reused). */
export interface ChargeRequest {
  requestReference: string;
  /** The member's account at the payment provider (cp_rsr.external_account_id). */
  memberId: string | null;
  /** Cents. */
  amount: number;
  currency: 'HKD';
  rsrId: number;
}

/** The outcome of one call; `response` is what the api log records (status and body, or the failure). */
export type ChargeOutcome =
  | { approved: true; transactionReference: string; message: string | null; response: unknown }
  | { approved: false; message: string; response: unknown };

export interface PaymentGateway {
  /** The address called, for the api log. */
  readonly url: string;
  /** Never throws: a decline, an HTTP error, a malformed answer, a timeout or no answer all come back as not approved. */
  charge(req: ChargeRequest): Promise<ChargeOutcome>;
}

/**
 * POSTs the request as JSON with `Authorization: Bearer <key>` and expects 2xx with
 * `{ "status": "Approved" | "Declined", "transactionReference": "…", "message": "…" }`
 * (status case-insensitive; an approval must carry its transactionReference).
 */
export class HttpGateway implements PaymentGateway {
  constructor(
    readonly url: string,
    private readonly key: string,
    private readonly timeoutMs: number,
  ) {}

  async charge(req: ChargeRequest): Promise<ChargeOutcome> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${this.key}` },
        body: JSON.stringify(req),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const message = timedOut ? `No answer within ${this.timeoutMs} ms` : `Gateway unreachable: ${describe(err)}`;
      return { approved: false, message, response: { error: message } };
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      const message = `Answer not read: ${describe(err)}`;
      return { approved: false, message, response: { httpStatus: res.status, error: message } };
    }
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* kept as text: malformed */
    }
    const response = { httpStatus: res.status, body };
    if (!res.ok) return { approved: false, message: `Gateway answered HTTP ${res.status}`, response };
    if (!body || typeof body !== 'object') return { approved: false, message: 'Malformed gateway answer', response };
    const { status, transactionReference, message } = body as Record<string, unknown>;
    const text_ = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 255) : null);
    const verdict = typeof status === 'string' ? status.toLowerCase() : '';
    const reference = text_(transactionReference);
    if (verdict === 'approved' && reference) return { approved: true, transactionReference: reference, message: text_(message), response };
    if (verdict === 'declined') return { approved: false, message: text_(message) ?? 'Declined', response };
    return { approved: false, message: 'Malformed gateway answer', response };
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
}

/** The configured gateway, or undefined: manual settlement (nothing is ever recorded as paid without one). */
export function gatewayOf(config: Pick<Config, 'paymentGateway'>): PaymentGateway | undefined {
  const g = config.paymentGateway;
  return g ? new HttpGateway(g.url, g.key, g.timeoutMs) : undefined;
}
