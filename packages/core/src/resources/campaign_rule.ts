import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, selectCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A campaign's rules (spec part 2 §3, §4, §5): the campaign applies only while every rule passes
 * (core pricing.ts campaignRulePasses). campaignRuleConfig is a JSON string the server normalises
 * per type: DateExclude ['yyyy-MM-dd', …], TimeInclude [{start, end} HH:mm, …], DayInclude
 * [1..7 or '1-5' | '1-6' | '1-7', …]. Listed in the campaign's view; a voucher campaign's rules
 * are as fixed as the campaign.
 */
export const campaign_rule: ResourceDef = {
  key: 'campaign_rule',
  labels: labels(['Campaign Rules', '推廣活動規則'], {
    id: C.id,
    campaignId: ['Campaign', '推廣活動'],
    campaignName: ['Campaign Name', '推廣活動名稱'],
    campaignRuleTypeCode: ['Rule Type', '規則類型'],
    ruleName: ['Rule Name', '規則名稱'],
    campaignRuleConfig: ['Rule Configuration', '規則設定'],
    description: ['Description', '描述'],
    descriptionCht: ['Description (Traditional Chinese)', '描述（繁體中文）'],
    descriptionChs: ['Description (Simplified Chinese)', '描述（簡體中文）'],
    campaignIsVoucher: ['Voucher Campaign', '電子券活動'],
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'campaign_rule',
  idField: 'id',
  titleField: 'ruleName',
  columns: [
    idCol('id'),
    col('campaignId', 'link', 'int', { sortable: true, filter: 'select', linkTo: 'campaign' }),
    textCol('campaignName', { filter: undefined }),
    selectCol('campaignRuleTypeCode', 'campaign_rule_type', { type: 'text' }),
    textCol('ruleName'),
    textCol('campaignRuleConfig', { filter: undefined }),
    textCol('description'),
    textCol('descriptionCht', { hiddenInList: true }),
    textCol('descriptionChs', { hiddenInList: true }),
    col('campaignIsVoucher', 'boolean', 'bool', { viewOnly: true }),
    dateCol('lupd_dttm'),
  ],
  fields: [
    fld('campaignId', 'number', 'int', { required: true, lockedAfterCreate: true }),
    fld('campaignRuleTypeCode', 'select', 'text', { options: 'campaign_rule_type', required: true }),
    textFld('ruleName'),
    fld('campaignRuleConfig', 'textarea', 'text', { required: true, maxLength: 20_000 }),
    textFld('description', { maxLength: 1000 }),
    textFld('descriptionCht', { maxLength: 1000 }),
    textFld('descriptionChs', { maxLength: 1000 }),
  ],
  defaultSort: { field: 'id', order: 'asc' },
  softDelete: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete'],
};
