import type { Catalog, Lang } from './types.ts';

/** Texts of the parking screens (namespace ui.parking.*, merged into UI): bays, their log, the start form's Get LP. */
export const PARKING_UI: Record<Lang, Catalog> = {
  en: {
    parking: {
      teslaLocked: 'A Tesla bay is managed by the parking system: it cannot be edited here.',
      events: 'Events',
      getLp: 'Get LP',
      getLpHint: 'Fills the licence plate and entry time from the bay of this connector.',
      lpFound: 'Licence plate {{lp}}, in since {{time}}',
      // The server's ResMsg of each non-zero ResCode (parking/lp.ts), in the reader's language.
      lpRes: {
        1: 'No parking bay at this connector',
        2: 'The bay of this connector is vacant',
        3: 'No licence plate was recognised for the car in the bay',
      },
    },
  },
  'zh-TW': {
    parking: {
      teslaLocked: 'Tesla 車位由停車系統管理，不可在此編輯。',
      events: '事件',
      getLp: '取得車牌',
      getLpHint: '從此充電槍的車位填入車牌及入場時間。',
      lpFound: '車牌 {{lp}}，{{time}} 入場',
      lpRes: {
        1: '此充電槍沒有停車位',
        2: '此充電槍的車位空置',
        3: '未能辨認車位內車輛的車牌',
      },
    },
  },
};
