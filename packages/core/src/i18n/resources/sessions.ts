import type { ResourceLabels } from '../types.ts';
import { COMMON as C, labels, type Pair } from './build.ts';

export const cp_requests: ResourceLabels = labels(['Charger Requests', '充電樁請求'], {
  req_id: ['Request ID', '請求編號'],
  charge_box_serial_number: C.charge_box_serial_number,
  cp_id: C.cp_id,
  cp_no: C.cp_no,
  connector_id: C.connector_id,
  connector_status: ['Connector Status', '充電槍狀態'],
  request_type: ['Request Type', '請求類型'],
  request_data: ['Request Data', '請求資料'],
  response_data: ['Response Data', '回應資料'],
  cre_dttm: ['Request Time', '請求時間'],
  session_id: C.session_id,
  tran_id: C.tran_id,
  uuid: C.uuid,
  loc: C.loc,
  energy: C.energy,
  voltage: C.voltage,
  ampere: C.ampere,
  rsr_id: C.rsr_id,
});

const sessionFields: Record<string, Pair> = {
  session_id: C.session_id,
  tran_id: C.tran_id,
  cp_id: C.cp_id,
  cp_no: C.cp_no,
  connector_id: C.connector_id,
  connector_name: C.connector_name,
  total_charge_time: ['Total Charging Time', '總充電時間'],
  total_pw_consume: ['Total Energy Consumed', '總用電量'],
  running_pw_consume: ['Energy Consumed So Far', '累計用電量'],
  session_start_time: ['Start Time', '開始時間'],
  session_end_time: ['End Time', '結束時間'],
  start_meter: ['Start Meter Reading', '開始電錶讀數'],
  end_meter: ['End Meter Reading', '結束電錶讀數'],
  start_soc: ['Start SoC (%)', '開始電量（%）'],
  end_soc: ['End SoC (%)', '結束電量（%）'],
  account_id: C.account_id,
  id_tag: ['ID Tag', '識別卡號'],
  stop_reason: ['Stop Reason', '停止原因'],
  loc_id: C.loc_id,
  energy: C.energy,
  voltage: C.voltage,
  ampere: C.ampere,
  cre_dttm: C.cre_dttm,
};

export const cp_sessions: ResourceLabels = labels(['Charging Sessions', '充電記錄'], sessionFields);

export const cp_sessions_all: ResourceLabels = labels(['All Charging Sessions', '所有充電記錄'], sessionFields);

export const kmb_cp_sessions: ResourceLabels = labels(['KMB Charging Sessions', '九巴充電記錄'], sessionFields);
