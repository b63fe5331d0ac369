import type { ResourceLabels } from '../types.ts';
import { COMMON as C, labels } from './build.ts';

export const auth_card: ResourceLabels = labels(['Authorised Cards', '授權卡'], {
  id: C.id,
  name: ['Card Name', '卡名稱'],
  rfid_cards: ['RFID Cards', 'RFID 卡號'],
  loc: ['Sites', '充電站'],
  cp: ['Chargers', '充電樁'],
  active: C.active,
});
