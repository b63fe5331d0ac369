import { editPrivilege, P } from '@ev/core';
import { CancelRsrButton, SettleRsrButton } from '../../screens/rsr/RsrButtons.tsx';
import type { RowActionsContext } from './types.ts';

/**
 * An RSR row's own buttons (spec part 2 §4): cancel while RemoteStarted; mark settled while it and
 * its payment are Unsettled (READ_SETTLED_BUTTON). The edit of an UnderPenalty one is the generic
 * edit (lockedWhen in the definition, READ_PENALTY_BUTTON).
 */
export const rowActions = ({ row, perms, reload }: RowActionsContext) => {
  const id = Number(row.rsr_id);
  if (row.status === 'RemoteStarted' && perms.has(editPrivilege('cp_rsr'))) return <CancelRsrButton id={id} onDone={reload} />;
  if (row.status === 'Unsettled' && row.payment_status === 'Unsettled' && perms.has(P.SETTLED_BUTTON)) {
    return <SettleRsrButton id={id} amount={Number(row.charging_fee ?? 0) + Number(row.penalty_fee ?? 0)} onDone={reload} />;
  }
  return null;
};
