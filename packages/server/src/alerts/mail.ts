import { STATIC_OPTIONS } from '@ev/core';

/** What an alert e-mail tells, as read from the database. */
export interface AlertMailData {
  alert_id: number;
  cp_no: string;
  location: string | null;
  error_id: string;
  message: string | null;
  /** YYYY-MM-DD HH:mm:ss in the display time zone. */
  last_date: string;
  level: number;
  group_name: string;
}

function errorLabel(code: string, lang: 'en' | 'zh-TW'): string {
  const option = STATIC_OPTIONS.alert_error_code.find((o) => o.value === code);
  return option ? `${option.label[lang]} (${code})` : code;
}

/** The subject and plain-text body of an alert e-mail, English then Traditional Chinese. */
export function alertMail(a: AlertMailData): { subject: string; text: string } {
  const site = a.location ?? '-';
  const message = a.message ?? '-';
  const subject = `[Alert] ${a.cp_no}: ${a.error_id} (${a.level}) / [警報] ${a.cp_no}：${errorLabel(a.error_id, 'zh-TW')}`;
  const text = [
    `Charger alert #${a.alert_id} for contact group "${a.group_name}"`,
    '',
    `Charger: ${a.cp_no}`,
    `Site: ${site}`,
    `Error: ${errorLabel(a.error_id, 'en')}`,
    `Message: ${message}`,
    `Time: ${a.last_date}`,
    `Continuous detections: ${a.level}`,
    '',
    '----',
    '',
    `充電樁警報 #${a.alert_id}（聯絡人群組「${a.group_name}」）`,
    '',
    `充電樁：${a.cp_no}`,
    `地點：${site}`,
    `錯誤：${errorLabel(a.error_id, 'zh-TW')}`,
    `訊息：${message}`,
    `時間：${a.last_date}`,
    `連續偵測次數：${a.level}`,
    '',
  ].join('\n');
  return { subject, text };
}
