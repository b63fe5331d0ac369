import type { Lang } from './i18n/types.ts';
import { LMS_MODES } from './lms.ts';
import { OCPP_REQUEST_TYPES, STOP_REASONS, UNCONFIRMED_AUTO_CLOSE_HOURS, UNCONFIRMED_REASONS, type StopReason } from './ocpp.ts';
import type { Pair } from './resources/labels.ts';
import { EXTERNAL_PRIVILEGES } from './privileges.ts';
import { FIRMWARE_JOB_STATUSES, FIRMWARE_TARGET_KINDS } from './resources/firmware_jobs.ts';
import { RESERVATION_STATUSES } from './resources/reservations.ts';

/** One item of an option list as the API answers it, its label in the reader's language. */
export interface OptionItem {
  label: string;
  value: string | number;
}

export const CONNECTOR_STATUSES = [
  'Available', 'Preparing', 'Charging', 'SuspendedEVSE', 'SuspendedEV', 'Finishing', 'Reserved', 'Unavailable', 'Faulted', 'Offline', 'N/A',
] as const;
export type ConnectorStatus = (typeof CONNECTOR_STATUSES)[number];

/** Statuses in which a connector counts as charging for the remote-action buttons (part 1 §4). */
export const CHARGING_STATUSES: readonly string[] = ['Charging', 'SuspendedEVSE', 'SuspendedEV'];

/** How a charger's BootNotification is answered (cps.boot_policy; server ocpp/boot-policy.ts). */
export const BOOT_POLICIES = ['accept', 'provision', 'reject'] as const;
export type BootPolicy = (typeof BOOT_POLICIES)[number];
/**
 * What the chargers list and view show as the status of a connected charger whose boot was not accepted
 * (server hooks/cps.ts): its connectors' reports mean nothing until it is.
 */
export const BOOT_PENDING = 'BootPending';
export const BOOT_REJECTED = 'BootRejected';

export const HOME_SCREENS = ['LMS', 'Dashboard', 'CpList'] as const;
export type HomeScreen = (typeof HOME_SCREENS)[number];

export const USER_LOG_TYPES = ['LOGIN', 'LOGIN_FAILED', 'LOGOUT'] as const;
export const PORTAL_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'COMMAND'] as const;
/** Kinds of data the retention job trims (data_rotation_setup.item); what each removes: server housekeeping/rotation.ts. */
export const DATA_ROTATION_ITEMS = ['cp_request', 'cp_session', 'cp_meter_value', 'transaction'] as const;
export type DataRotationItem = (typeof DATA_ROTATION_ITEMS)[number];
/** Who may change an app_config entry: Admin needs READ_APP_CONFIG_ADMIN, Everyone EDIT_APP_CONFIG. */
export const APP_CONFIG_AUTHORITIES = ['Admin', 'Everyone'] as const;

/** OCPP 1.6 ChargePointErrorCode (§7.6), as StatusNotification reports it. */
export const CHARGE_POINT_ERROR_CODES = [
  'ConnectorLockFailure', 'EVCommunicationError', 'GroundFailure', 'HighTemperature', 'InternalError', 'LocalListConflict',
  'NoError', 'OtherError', 'OverCurrentFailure', 'OverVoltage', 'PowerMeterFailure', 'PowerSwitchFailure', 'ReaderFailure',
  'ResetFailure', 'UnderVoltage', 'WeakSignal',
] as const;

/**
 * OCPP 2.0.1 security events (Part 2 Appendix 1; 1.6 security whitepaper) that raise an alert: the ones needing a
 * person. Routine ones (StartupOfTheDevice, SettingSystemTime, FirmwareUpdated, …) are only logged.
 */
export const SECURITY_ALERT_TYPES = [
  'TamperDetectionActivated', 'InvalidFirmwareSignature', 'InvalidFirmwareSigningCertificate', 'InvalidCsmsCertificate',
  'InvalidChargingStationCertificate', 'MemoryExhaustion', 'AttemptedReplayAttacks', 'MaintenanceLoginFailed',
] as const;

/** What an alert is raised for: a charger's reported error, the charger gone away ('Offline'), or a security event. */
export const ALERT_ERROR_CODES = [...CHARGE_POINT_ERROR_CODES.filter((c) => c !== 'NoError'), 'Offline', ...SECURITY_ALERT_TYPES] as const;
/** Contact-group receiving frequencies (spec part 2 §9): mailed when an alert reaches this many detections. */
export const CONTACT_GROUP_LEVELS = [1, 5, 10] as const;
/** Fixed: sessions computed from the fee; Custom: each session typed in (spec part 2 §4). */
export const PRICE_SCHEME_TYPES = ['Fixed', 'Custom'] as const;

/** A value of a fixed list with its label in both languages. */
export interface StaticOption {
  value: string | number;
  label: Record<Lang, string>;
}

/** The values in their order, each labelled: the Record type makes a value without a label a compile error. */
function labelled<V extends string | number>(values: readonly V[], names: Record<V, Pair>): StaticOption[] {
  return values.map((value) => ({ value, label: { en: names[value][0], 'zh-TW': names[value][1] } }));
}

const REQUEST_TYPE_NAMES: Record<string, Pair> = {
  BootNotification: ['BootNotification', '開機通知'],
  StatusNotification: ['StatusNotification', '狀態通知'],
  Authorize: ['Authorize', '授權'],
  StartTransaction: ['StartTransaction', '開始交易'],
  StopTransaction: ['StopTransaction', '結束交易'],
  Heartbeat: ['Heartbeat', '心跳'],
  DataTransfer: ['DataTransfer', '數據傳輸'],
  DiagnosticsStatusNotification: ['DiagnosticsStatusNotification', '診斷狀態通知'],
  FirmwareStatusNotification: ['FirmwareStatusNotification', '韌體狀態通知'],
  RemoteStartTransaction: ['RemoteStartTransaction', '遙距開始充電'],
  MeterValues: ['MeterValues', '電錶讀數'],
  SetChargingProfile: ['SetChargingProfile', '設定充電設定檔'],
  ClearChargingProfile: ['ClearChargingProfile', '清除充電設定檔'],
  RemoteStopTransaction: ['RemoteStopTransaction', '遙距停止充電'],
  UnlockConnector: ['UnlockConnector', '解鎖充電槍'],
  Reset: ['Reset', '重設'],
  ChangeAvailability: ['ChangeAvailability', '更改可用狀態'],
  GetDiagnostics: ['GetDiagnostics', '取得診斷資料'],
  TriggerMessage: ['TriggerMessage', '觸發訊息'],
  ChangeConfiguration: ['ChangeConfiguration', '更改設定'],
  GetConfiguration: ['GetConfiguration', '取得設定'],
  GetCompositeSchedule: ['GetCompositeSchedule', '取得綜合排程'],
  ClearCache: ['ClearCache', '清除快取'],
  UpdateFirmware: ['UpdateFirmware', '更新韌體'],
  ReserveNow: ['ReserveNow', '立即預約'],
  CancelReservation: ['CancelReservation', '取消預約'],
  GetLocalListVersion: ['GetLocalListVersion', '取得本地名單版本'],
  SendLocalList: ['SendLocalList', '發送本地名單'],
  TransactionEvent: ['TransactionEvent', '交易事件'],
  LogStatusNotification: ['LogStatusNotification', '日誌狀態通知'],
  NotifyReport: ['NotifyReport', '設備模型報告'],
  SecurityEventNotification: ['SecurityEventNotification', '安全事件通知'],
  NotifyEvent: ['NotifyEvent', '事件通知'],
  ReservationStatusUpdate: ['ReservationStatusUpdate', '預約狀態更新'],
  RequestStartTransaction: ['RequestStartTransaction', '遙距開始充電'],
  RequestStopTransaction: ['RequestStopTransaction', '遙距停止充電'],
  GetVariables: ['GetVariables', '讀取變數'],
  SetVariables: ['SetVariables', '設定變數'],
  GetBaseReport: ['GetBaseReport', '索取設備模型報告'],
  GetLog: ['GetLog', '取得日誌'],
};

/** `request_types`: DataTransfer exists in both directions, so the outgoing one is marked; 2.0.1 messages carry their version. */
const REQUEST_TYPE_OPTIONS: StaticOption[] = OCPP_REQUEST_TYPES.map((t) => {
  const [en, zh] = REQUEST_TYPE_NAMES[t.action];
  const toCharger = t.direction === 'out' && t.action === 'DataTransfer';
  const version = t.protocol ? ` (${t.protocol})` : '';
  return {
    value: t.id,
    label: { en: (toCharger ? `${en} (to charger)` : en) + version, 'zh-TW': (toCharger ? `${zh}（至充電樁）` : zh) + version },
  };
});

/**
 * Option lists fixed in code, every value labelled in both languages (the one catalogue of
 * enumerated values: the portal shows these labels, the server validates against the values).
 * Lists read from the database are resources' asOption, served under the same API.
 */
export const STATIC_OPTIONS: Record<string, StaticOption[]> = {
  connector_status: labelled(CONNECTOR_STATUSES, {
    Available: ['Available', '可用'],
    Preparing: ['Preparing', '準備中'],
    Charging: ['Charging', '充電中'],
    SuspendedEVSE: ['Suspended (charger)', '暫停（充電樁）'],
    SuspendedEV: ['Suspended (vehicle)', '暫停（電動車）'],
    Finishing: ['Finishing', '完成中'],
    Reserved: ['Reserved', '已預約'],
    Unavailable: ['Unavailable', '不可用'],
    Faulted: ['Faulted', '故障'],
    Offline: ['Offline', '離線'],
    'N/A': ['N/A', '不適用'],
  }),
  home_screen: labelled(HOME_SCREENS, {
    LMS: ['Load management', '負載管理'],
    Dashboard: ['Dashboard', '儀表板'],
    CpList: ['Charging point list', '充電樁列表'],
  }),
  user_log_type: labelled(USER_LOG_TYPES, {
    LOGIN: ['Sign-in', '登入'],
    LOGIN_FAILED: ['Failed sign-in', '登入失敗'],
    LOGOUT: ['Sign-out', '登出'],
  }),
  portal_action: labelled(PORTAL_ACTIONS, {
    CREATE: ['Create', '新增'],
    UPDATE: ['Update', '修改'],
    DELETE: ['Delete', '刪除'],
    COMMAND: ['Charger command', '充電樁指令'],
  }),
  reservation_status: labelled(RESERVATION_STATUSES, {
    Pending: ['Waiting for the charger', '等待充電樁回覆'],
    Accepted: ['Reserved', '已預約'],
    Faulted: ['Refused: faulted', '拒絕：故障'],
    Occupied: ['Refused: occupied', '拒絕：使用中'],
    Rejected: ['Refused', '拒絕'],
    Unavailable: ['Refused: unavailable', '拒絕：不可用'],
    Cancelled: ['Cancelled', '已取消'],
    Used: ['Used', '已使用'],
    Expired: ['Expired', '已過期'],
  }),
  firmware_job_status: labelled(FIRMWARE_JOB_STATUSES, { Running: ['Running', '執行中'], Finished: ['Finished', '已完成'], Stopped: ['Stopped', '已停止'] }),
  firmware_target_kind: labelled(FIRMWARE_TARGET_KINDS, { site: ['A site', '站點'], zone: ['A zone', '區域'], chargers: ['Chosen chargers', '指定充電樁'] }),
  reset_type: labelled(['Hard', 'Soft'] as const, { Hard: ['Hard reset', '硬重設'], Soft: ['Soft reset', '軟重設'] }),
  availability_type: labelled(['Operative', 'Inoperative'] as const, {
    Operative: ['Operative', '可運作'],
    Inoperative: ['Inoperative', '停止運作'],
  }),
  data_rotation_item: labelled(DATA_ROTATION_ITEMS, {
    cp_request: ['Charger messages', '充電樁訊息'],
    cp_session: ['Finished charging sessions', '已完成的充電記錄'],
    cp_meter_value: ['Meter readings', '電錶讀數'],
    transaction: ['Unfinished transactions', '未完成的交易'],
  }),
  app_config_authority: labelled(APP_CONFIG_AUTHORITIES, { Admin: ['Admin', '管理員'], Everyone: ['Everyone', '所有人'] }),
  third_party_privilege: labelled(EXTERNAL_PRIVILEGES, {
    EXT_CHARGING: ['Remote charging (start, stop)', '遙距充電（開始、停止）'],
    EXT_LICENCE_PLATE: ['Licence plate and parking events', '車牌及停車事件'],
    EXT_ALL: ['Charging and licence plate', '充電及車牌'],
  }),
  external_action: labelled(['remote_start', 'remote_stop', 'get_lp', 'parking_event'] as const, {
    remote_start: ['Remote start', '遙距開始充電'],
    remote_stop: ['Remote stop', '遙距停止充電'],
    get_lp: ['Get licence plate', '查詢車牌'],
    parking_event: ['Parking event', '停車事件'],
  }),
  request_types: REQUEST_TYPE_OPTIONS,
  price_scheme_type: labelled(PRICE_SCHEME_TYPES, { Fixed: ['Fixed', '固定'], Custom: ['Custom', '自訂'] }),
  // Charging rates: priced by time only (the type is shown, never changed); a slot's older fee and point are per `unit`.
  charging_rate_type: labelled(['Time'] as const, { Time: ['Time', '時間'] }),
  charging_rate_unit: labelled(['Minute', 'Hour', 'Session'] as const, { Minute: ['Minute', '分鐘'], Hour: ['Hour', '小時'], Session: ['Session', '節'] }),
  weekday: labelled([1, 2, 3, 4, 5, 6, 7] as const, {
    1: ['Monday', '星期一'], 2: ['Tuesday', '星期二'], 3: ['Wednesday', '星期三'], 4: ['Thursday', '星期四'],
    5: ['Friday', '星期五'], 6: ['Saturday', '星期六'], 7: ['Sunday', '星期日'],
  }),
  campaign_rule_type: labelled(['DateExclude', 'TimeInclude', 'DayInclude'] as const, {
    DateExclude: ['Excluded dates', '不適用日期'], TimeInclude: ['Time ranges', '適用時段'], DayInclude: ['Weekdays', '適用星期'],
  }),
  // Payments (spec part 2 §3, §4): each attempt of a payment and what the payment as a whole is.
  payment_detail_status: labelled(['Pending', 'Success', 'Error'] as const, { Pending: ['Pending', '處理中'], Success: ['Success', '成功'], Error: ['Error', '錯誤'] }),
  payment_action_type: labelled(['AutoPay', 'Retry', 'Manual'] as const, { AutoPay: ['Automatic payment', '自動付款'], Retry: ['Retry', '重試'], Manual: ['Settled by hand', '人手結算'] }),
  payment_type: labelled(['Charging', 'Penalty', 'ChargingAndPenalty'] as const, {
    Charging: ['Charging fee', '充電費'], Penalty: ['Penalty fee', '罰款'], ChargingAndPenalty: ['Charging and penalty fees', '充電費及罰款'],
  }),
  payment_result_status: labelled(['Unsettled', 'Settled'] as const, { Unsettled: ['Unsettled', '未結算'], Settled: ['Settled', '已結算'] }),
  rsr_status: labelled(['RemoteStarted', 'Charging', 'UnderPenalty', 'Unsettled', 'Settled', 'Cancelled', 'Failed'] as const, {
    RemoteStarted: ['Remote started', '已遙距啟動'], Charging: ['Charging', '充電中'], UnderPenalty: ['Under penalty', '罰款中'],
    Unsettled: ['Unsettled', '未結算'], Settled: ['Settled', '已結算'], Cancelled: ['Cancelled', '已取消'], Failed: ['Failed', '失敗'],
  }),
  rsr_stop_type: labelled(['Local', 'Remote', 'EVDisconnected', 'DeAuthorized', 'EmergencyStop', 'HardReset', 'SoftReset', 'PowerLoss', 'Reboot', 'UnlockCommand', 'Other'] as const, {
    Local: ['Stopped at the charger', '在充電器停止'], Remote: ['Stopped remotely', '遙距停止'], EVDisconnected: ['Vehicle disconnected', '車輛已斷開'],
    DeAuthorized: ['De-authorized', '授權已取消'], EmergencyStop: ['Emergency stop', '緊急停止'], HardReset: ['Hard reset', '硬重設'], SoftReset: ['Soft reset', '軟重設'],
    PowerLoss: ['Power loss', '斷電'], Reboot: ['Reboot', '重新啟動'], UnlockCommand: ['Unlock command', '解鎖指令'], Other: ['Other', '其他'],
  }),
  rsr_is_free: labelled(['N', 'Y'] as const, { N: ['No', '否'], Y: ['Yes (no fee, no penalty)', '是（免收費及罰款）'] }),
  voucher_status: labelled(['Valid', 'Redeemed', 'Expired'] as const, { Valid: ['Valid', '有效'], Redeemed: ['Redeemed', '已兌換'], Expired: ['Expired', '已過期'] }),
  // Parking bays and their log (spec part 2 §3): a Tesla bay is managed by the parking system.
  bay_type: labelled(['Normal', 'Tesla'] as const, { Normal: ['Normal', '一般'], Tesla: ['Tesla', 'Tesla'] }),
  bay_status: labelled(['Vacant', 'Occupied'] as const, { Vacant: ['Vacant', '空置'], Occupied: ['Occupied', '已佔用'] }),
  // Copied to the RSRs of the bay (cp_rsr.penalty_mode): Rate prices overtime by the charging rate, Manual takes the fee set on the RSR.
  bay_penalty_mode: labelled(['Rate', 'Manual'] as const, { Rate: ['By the charging rate', '按充電收費計算'], Manual: ['Set by hand on the request', '於請求上人手設定'] }),
  bay_event: labelled(['In', 'Out'] as const, { In: ['Car in', '車輛入場'], Out: ['Car out', '車輛離場'] }),
  bay_request_status: labelled(['Accepted', 'Refused'] as const, { Accepted: ['Accepted', '已接受'], Refused: ['Refused', '已拒絕'] }),
  bay_update: labelled(['Occupied', 'Vacant', 'Unchanged'] as const, { Occupied: ['Now occupied', '改為已佔用'], Vacant: ['Now vacant', '改為空置'], Unchanged: ['Unchanged', '沒有改變'] }),
  // A site's fixed attributes (cp_locs provider_id, mode_id, district_id): the ids the site table has always stored.
  site_provider: labelled([1, 2] as const, { 1: ['CLP Power', '中華電力'], 2: ['HK Electric', '香港電燈'] }),
  site_mode: labelled([0, 1, 2, 3] as const, { 0: ['Unknown', '未知'], 1: ['Queueing', '排隊'], 2: ['Distribution', '分配'], 3: ['Mixed mode', '混合模式'] }),
  site_district: labelled([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18] as const, {
    1: ['Central and Western', '中西區'], 2: ['Wan Chai', '灣仔區'], 3: ['Eastern', '東區'], 4: ['Southern', '南區'],
    5: ['Yau Tsim Mong', '油尖旺區'], 6: ['Sham Shui Po', '深水埗區'], 7: ['Kowloon City', '九龍城區'], 8: ['Wong Tai Sin', '黃大仙區'],
    9: ['Kwun Tong', '觀塘區'], 10: ['Tsuen Wan', '荃灣區'], 11: ['Tuen Mun', '屯門區'], 12: ['Yuen Long', '元朗區'],
    13: ['North', '北區'], 14: ['Tai Po', '大埔區'], 15: ['Sai Kung', '西貢區'], 16: ['Sha Tin', '沙田區'],
    17: ['Kwai Tsing', '葵青區'], 18: ['Islands', '離島區'],
  }),
  lms_mode: labelled(LMS_MODES, {
    QUEUEING: ['Queueing', '排隊'],
    DISTRIBUTION: ['Distribution', '分配'],
    MIXED: ['Mixed', '混合'],
  }),
  stop_reason: labelled<StopReason>(STOP_REASONS, {
    EmergencyStop: ['Emergency stop', '緊急停止'],
    EVDisconnected: ['Vehicle disconnected', '電動車已斷開'],
    HardReset: ['Hard reset', '硬重設'],
    Local: ['Stopped at the charger', '於充電樁停止'],
    Other: ['Other', '其他'],
    PowerLoss: ['Power loss', '斷電'],
    Reboot: ['Reboot', '重新啟動'],
    Remote: ['Stopped remotely', '遙距停止'],
    SoftReset: ['Soft reset', '軟重設'],
    UnlockCommand: ['Unlock command', '解鎖指令'],
    DeAuthorized: ['Not authorised', '授權被拒'],
    ClosedByOperator: ['Closed by an operator (no stop from the charger)', '由操作員關閉（充電樁未報告停止）'],
    ClosedUnconfirmed: ['Closed automatically (unconfirmed)', '自動關閉（未確認）'],
  }),
  unconfirmed_reason: labelled(UNCONFIRMED_REASONS, {
    Available: ['Unconfirmed: the connector reported Available', '未確認：充電槍報告為可用'],
    Boot: ['Unconfirmed: the charger restarted', '未確認：充電樁已重新啟動'],
  }),
  unconfirmed_auto_close_hours: labelled(UNCONFIRMED_AUTO_CLOSE_HOURS, {
    '0': ['Off', '關閉'],
    '1': ['After 1 hour', '1 小時後'],
    '2': ['After 2 hours', '2 小時後'],
    '4': ['After 4 hours', '4 小時後'],
    '8': ['After 8 hours', '8 小時後'],
    '12': ['After 12 hours', '12 小時後'],
    '24': ['After 24 hours', '24 小時後'],
    '48': ['After 2 days', '2 日後'],
    '72': ['After 3 days', '3 日後'],
    '168': ['After 7 days', '7 日後'],
  }),
  // cps.ocpp_protocol as the portal shows it; 'none' stands for a charger that never connected.
  ocpp_protocol: labelled(['ocpp1.6', 'ocpp2.0.1', 'none'] as const, {
    'ocpp1.6': ['OCPP 1.6', 'OCPP 1.6'], 'ocpp2.0.1': ['OCPP 2.0.1', 'OCPP 2.0.1'], none: ['— (never connected)', '—（從未連線）'],
  }),
  // The labels say what each does: the form has no other help text.
  boot_policy: labelled(BOOT_POLICIES, {
    accept: ['Accept (answer Accepted at once)', '接受（立即回覆 Accepted）'],
    provision: ['Read its configuration first (Pending until read)', '先讀取設定（讀取完成前回覆 Pending）'],
    reject: ['Reject (answer Rejected; no remote actions)', '拒絕（回覆 Rejected；不可遙距操作）'],
  }),
  charge_point_error_code: labelled(CHARGE_POINT_ERROR_CODES, {
    ConnectorLockFailure: ['Connector lock failure', '充電槍鎖定故障'],
    EVCommunicationError: ['Vehicle communication error', '電動車通訊錯誤'],
    GroundFailure: ['Ground failure', '接地故障'],
    HighTemperature: ['High temperature', '溫度過高'],
    InternalError: ['Internal error', '內部錯誤'],
    LocalListConflict: ['Local list conflict', '本地名單衝突'],
    NoError: ['No error', '沒有錯誤'],
    OtherError: ['Other error', '其他錯誤'],
    OverCurrentFailure: ['Over-current failure', '過電流故障'],
    OverVoltage: ['Over-voltage', '電壓過高'],
    PowerMeterFailure: ['Power meter failure', '電錶故障'],
    PowerSwitchFailure: ['Power switch failure', '電源開關故障'],
    ReaderFailure: ['Card reader failure', '讀卡器故障'],
    ResetFailure: ['Reset failure', '重設失敗'],
    UnderVoltage: ['Under-voltage', '電壓過低'],
    WeakSignal: ['Weak signal', '訊號微弱'],
  }),
};

STATIC_OPTIONS.alert_error_code = [
  ...STATIC_OPTIONS.charge_point_error_code.filter((o) => o.value !== 'NoError'),
  { value: 'Offline', label: { en: 'Offline', 'zh-TW': '離線' } },
  ...labelled(SECURITY_ALERT_TYPES, {
    TamperDetectionActivated: ['Tampering detected', '偵測到被撬動'],
    InvalidFirmwareSignature: ['Invalid firmware signature', '韌體簽章無效'],
    InvalidFirmwareSigningCertificate: ['Invalid firmware signing certificate', '韌體簽署憑證無效'],
    InvalidCsmsCertificate: ['Invalid central system certificate', '中央系統憑證無效'],
    InvalidChargingStationCertificate: ['Invalid charger certificate', '充電樁憑證無效'],
    MemoryExhaustion: ['Memory exhausted', '記憶體耗盡'],
    AttemptedReplayAttacks: ['Replay attack attempted', '有人嘗試重放攻擊'],
    MaintenanceLoginFailed: ['Maintenance login failed', '維修登入失敗'],
  }),
];
STATIC_OPTIONS.connector_status.push(
  { value: BOOT_PENDING, label: { en: 'Connected, waiting for configuration', 'zh-TW': '已連線，等待讀取設定' } },
  { value: BOOT_REJECTED, label: { en: 'Connected, boot rejected', 'zh-TW': '已連線，開機被拒' } },
);
STATIC_OPTIONS.contact_group_level = labelled(CONTACT_GROUP_LEVELS, {
  1: ['Every detection', '每次偵測'],
  5: ['At 5 continuous detections', '連續偵測 5 次'],
  10: ['At 10 continuous detections', '連續偵測 10 次'],
});

/** A fixed list with its labels in one language, as GET /options answers it. */
export function staticOptionItems(key: string, lang: Lang): OptionItem[] {
  return STATIC_OPTIONS[key].map((o) => ({ value: o.value, label: o.label[lang] }));
}
