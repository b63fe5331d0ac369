import { editPrivilege, P } from '@ev/core';
import { CancelRsrButton, SettleRsrButton, StopRsrButton, UnlockRsrButton } from '../../screens/rsr/RsrButtons.tsx';
import { RemoteStartButton } from '../../screens/rsr/RemoteStartButton.tsx';
import type { ListActionsContext, RowActionsContext } from './types.ts';

/**
 * An RSR row's own buttons (spec part 2 §4): cancel while RemoteStarted; mark settled while it and
 * its payment are Unsettled (READ_SETTLED_BUTTON). The edit of an UnderPenalty one is the generic
 * edit (lockedWhen in the definition, READ_PENALTY_BUTTON). With READ_REMOTE_START_CHARGER (spec part 2 §6)
 * the charger view's stop while it charges, and unlock until it is paid for (a cable may stay stuck after the stop).
 */
export const rowActions = ({ row, perms, reload }: RowActionsContext) => {
  const id = Number(row.rsr_id);
  const at = { id, cpId: Number(row.cp_id), cpNo: String(row.cp_no ?? ''), connectorId: Number(row.connector_id), onDone: reload };
  const commands = perms.has(P.REMOTE_START_CHARGER) && !!row.cp_id;
  const charging = row.status === 'Charging' || row.status === 'UnderPenalty';
  return (
    <>
      {row.status === 'RemoteStarted' && perms.has(editPrivilege('cp_rsr')) && <CancelRsrButton id={id} onDone={reload} />}
      {row.status === 'Unsettled' && row.payment_status === 'Unsettled' && perms.has(P.SETTLED_BUTTON) && (
        <SettleRsrButton id={id} amount={Number(row.charging_fee ?? 0) + Number(row.penalty_fee ?? 0)} onDone={reload} />
      )}
      {commands && charging && <StopRsrButton {...at} />}
      {commands && (charging || row.status === 'Unsettled') && <UnlockRsrButton {...at} />}
    </>
  );
};

/** A remote start on a charger picked here (READ_REMOTE_START_CHARGER), as from the charger view. */
export const listActions = ({ perms, reload }: ListActionsContext) =>
  perms.has(P.REMOTE_START_CHARGER) ? <RemoteStartButton onDone={reload} /> : null;
