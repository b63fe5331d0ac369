import { P } from '@ev/core';
import { RetryButton } from '../../screens/payments/RetryButton.tsx';
import type { RowActionsContext } from './types.ts';

/** A Retry button on a failed automatic payment that may still be retried (the server's retryable), for READ_RETRY_ERROR_PAYMENT. */
export const rowActions = ({ row, perms, reload }: RowActionsContext) =>
  perms.has(P.RETRY_ERROR_PAYMENT) && row.retryable === true ? (
    <RetryButton id={Number(row.id)} rsrId={Number(row.rsr_id)} amount={Number(row.amount)} reason={row.gatewayMessage as string | null} onDone={reload} />
  ) : null;
