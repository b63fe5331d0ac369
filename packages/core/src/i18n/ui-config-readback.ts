import type { Catalog, Lang } from './types.ts';

/**
 * The charger view's "Configuration on the charger" section (issue 29, namespace ui.configReadback): the
 * charger's own keys read back (GetConfiguration), compared with its configuration, and one key set
 * (ChangeConfiguration). The charger's answers (Accepted, Rejected, RebootRequired, NotSupported) are shown
 * as it gave them, in OCPP's words, with the text around them translated.
 */
export const CONFIG_READBACK_UI: Record<Lang, Catalog> = {
  en: {
    configReadback: {
      title: 'Configuration on the charger',
      read: 'Read from the charger',
      readDone: 'The charger answered {{count}} keys',
      lastRead: 'Last read {{at}}',
      neverRead: 'Not read yet: Read asks the charger for its keys.',
      noCurrentConfig: 'This charger has no current configuration: nothing to compare with.',
      driftCount: 'Keys that differ from the configuration: {{count}}',
      noDrift: 'No key differs from the configuration',
      onlyDrift: 'Only keys that differ',
      key: 'Key',
      value: 'Value on the charger',
      readonly: 'Read-only',
      wanted: 'Configuration wants',
      drift: 'Drift',
      differs: 'Differs',
      unknown: 'Unknown to the charger',
      same: 'Same',
      set: 'Set',
      setTitle: 'Set {{key}} on the charger',
      currentValue: 'Value on the charger: {{value}}',
      newValue: 'New value',
      send: 'Send to the charger',
      close: 'Close',
      confirmSet: 'Send ChangeConfiguration {{key}} = "{{value}}" to the charger?',
      answer: 'The charger answered',
      answerHint: {
        Accepted: 'The charger changed the key.',
        Rejected: 'The charger refused the value.',
        RebootRequired: 'The charger takes the value after it restarts.',
        NotSupported: 'The charger does not know this key.',
      },
      vendorTitle: 'Vendor settings (DataTransfer)',
      vendorNote:
        'These settings have no standard OCPP key: they go to the charger as DataTransfer and cannot be read back. "Accepted" means the charger took the message, not that the setting took effect.',
      vendorSetting: 'vendor setting (DataTransfer)',
      setting: 'Setting',
      lastAnswer: 'The charger\'s last answer',
      notSent: 'Not sent',
    },
  },
  'zh-TW': {
    configReadback: {
      title: '充電樁上的設定',
      read: '從充電樁讀取',
      readDone: '充電樁回覆了 {{count}} 個設定鍵',
      lastRead: '最後讀取於 {{at}}',
      neverRead: '尚未讀取：按「讀取」向充電樁查詢其設定鍵。',
      noCurrentConfig: '此充電樁沒有目前設定：沒有可比較的值。',
      driftCount: '{{count}} 個設定鍵與設定不符',
      noDrift: '沒有設定鍵與設定不符',
      onlyDrift: '只顯示不符的設定鍵',
      key: '設定鍵',
      value: '充電樁上的值',
      readonly: '唯讀',
      wanted: '設定要求的值',
      drift: '差異',
      differs: '不符',
      unknown: '充電樁不認識此鍵',
      same: '相同',
      set: '設定',
      setTitle: '設定充電樁的 {{key}}',
      currentValue: '充電樁上的值：{{value}}',
      newValue: '新值',
      send: '傳送至充電樁',
      close: '關閉',
      confirmSet: '確定向充電樁傳送 ChangeConfiguration {{key}} = 「{{value}}」？',
      answer: '充電樁回覆',
      answerHint: {
        Accepted: '充電樁已更改此設定鍵。',
        Rejected: '充電樁拒絕了此值。',
        RebootRequired: '充電樁須重新啟動後才採用此值。',
        NotSupported: '充電樁不認識此設定鍵。',
      },
      vendorTitle: '廠商設定（DataTransfer）',
      vendorNote:
        '這些設定沒有標準 OCPP 設定鍵：以 DataTransfer 傳送至充電樁，無法讀回。「Accepted」只表示充電樁收到訊息，不代表設定已生效。',
      vendorSetting: '廠商設定（DataTransfer）',
      setting: '設定',
      lastAnswer: '充電樁最後的回覆',
      notSent: '未傳送',
    },
  },
};
