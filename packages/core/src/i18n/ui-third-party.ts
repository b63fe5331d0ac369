import type { Catalog, Lang } from './types.ts';

/** Texts of the third-party access screens (namespace ui.thirdParty.*, merged into UI). */
export const THIRD_PARTY_UI: Record<Lang, Catalog> = {
  en: {
    thirdParty: {
      tab: 'API key',
      secretTitle: 'API key of {{name}}',
      secretWarning: 'Copy it now, it will not be shown again.',
      secretHint: 'The app sends it with its App ID in the X-App-Id and X-Api-Key headers.',
      copied: 'I have copied it',
      hasSecret: 'The app has a secret (shown once when it was made).',
      noSecret: 'The app has no secret: its calls are refused.',
      removeSecret: 'Remove secret',
      newSecret: 'New secret',
      confirmRemove: 'Remove the app secret of ID: {{id}}, key name: {{name}}?',
      confirmRemoveHint: 'The app can no longer call until it is given a new secret.',
      confirmNew: 'Make a new secret for ID: {{id}}, key name: {{name}}?',
      confirmNewHint: 'The current secret stops working at once.',
      removed: 'The secret was removed',
    },
  },
  'zh-TW': {
    thirdParty: {
      tab: 'API 金鑰',
      secretTitle: '{{name}} 的 API 金鑰',
      secretWarning: '請立即複製，此金鑰不會再次顯示。',
      secretHint: '應用程式以 X-App-Id 及 X-Api-Key 標頭連同應用程式編號傳送此金鑰。',
      copied: '我已複製',
      hasSecret: '此應用程式已有金鑰（只在建立時顯示一次）。',
      noSecret: '此應用程式沒有金鑰：其呼叫會被拒絕。',
      removeSecret: '移除金鑰',
      newSecret: '新金鑰',
      confirmRemove: '確定移除編號：{{id}}、金鑰名稱：{{name}} 的應用程式金鑰？',
      confirmRemoveHint: '在取得新金鑰之前，此應用程式不能再呼叫。',
      confirmNew: '確定為編號：{{id}}、金鑰名稱：{{name}} 建立新金鑰？',
      confirmNewHint: '現有金鑰會即時失效。',
      removed: '金鑰已移除',
    },
  },
};
