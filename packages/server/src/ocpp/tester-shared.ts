/**
 * The tester's payloads that are the same for both OCPP versions: its commands, given in their 1.6 form (the
 * dispatcher translates them for a 2.0.1 charger, v201/commands.ts), and DataTransfer, whose payload 2.0.1 kept.
 */
export const SHARED_TEMPLATES: Record<string, Record<string, unknown>> = {
  ChangeAvailability: { connectorId: 0, type: 'Operative' },
  SetChargingProfile: {
    connectorId: 1,
    csChargingProfiles: {
      chargingProfileId: 1, stackLevel: 0, chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute',
      chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 16 }] },
    },
  },
  TriggerMessage: { requestedMessage: 'StatusNotification', connectorId: 1 },
  DataTransfer: { vendorId: 'Tester', messageId: 'Ping', data: 'hello' },
};
