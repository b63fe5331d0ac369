/**
 * The resource definition: one object per resource key drives the server (SQL, validation,
 * permissions, scoping, audit) and the portal (columns, filters, forms, views).
 * It holds no JSX and no functions so that both sides can read it. One module per key in
 * resources/<key>.ts; resources/index.ts collects them.
 */
import type { ResourceLabels } from './i18n/types.ts';

/** How a list column or view field is displayed. */
export type DisplayType =
  | 'text'
  | 'number'
  | 'float1000' // stored value / 1000 (Wh to kWh, mA to A)
  | 'boolean'
  | 'datetime' // YYYY-MM-DD HH:mm:ss
  | 'seconds' // shown as hh:mm:ss
  | 'enum' // label looked up in the column's options
  | 'flag' // an enum shown as a warning tag: a state that needs someone's attention
  | 'link' // to another resource's view
  | 'json'
  | 'image' // a picture's URL (a bay's camera shot), shown as the picture
  | 'message' // a stored text (i18n/stored-text.ts): a catalog key with parameters, shown in the reader's language
  | 'changes' // {target, old, new} of an audit row: only the fields that changed, labelled as in the target resource
  | 'action' // view button column
  | 'massUpdate'; // row checkbox for mass update

/** One filter kind per column; each maps to exactly one SQL operator. */
export type FilterKind =
  | 'text' // contains, case-insensitive
  | 'select' // equals
  | 'multiselect' // in (repeated parameter)
  | 'boolean' // equals 0 / 1
  | 'dateRange'; // between two unix seconds

export type InputKind =
  | 'text'
  | 'textarea'
  | 'password'
  | 'email'
  | 'number'
  | 'boolean'
  | 'select'
  | 'multiselect'
  | 'datetime'
  | 'time' // HH:mm
  | 'json';

/** What an 'email' input accepts, in the portal's form and on the server alike. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The SQL type of the underlying database column, used for validation and filter parsing. */
export type ValueType = 'int' | 'float' | 'text' | 'bool' | 'timestamp' | 'json' | 'intArray';

export interface ColumnDef {
  field: string;
  display: DisplayType;
  type: ValueType;
  sortable?: boolean;
  filter?: FilterKind;
  /** Key of an option list (GET /api/options?opts=key) for select filters and enum display. */
  options?: string;
  /** Every one of these privileges is needed to see the column (and the field everywhere). */
  privileges?: string[];
  decimals?: number;
  /** Target resource key of a link column; the value is the target id. */
  linkTo?: string;
  /** Only shown in the view page, not as a list column. */
  viewOnly?: boolean;
  /** Hidden from the list by default (still filterable / viewable). */
  hiddenInList?: boolean;
}

export interface FieldDef {
  field: string;
  input: InputKind;
  type: ValueType;
  options?: string;
  required?: boolean;
  /** Required when creating, optional when editing (passwords). */
  requiredOnCreateOnly?: boolean;
  /** The message key (msg.form.<key>) said when a required field is left empty, where the spec has its own (campaign_not_chosen); default required. */
  missingMessage?: string;
  /** Accepted in writes, never sent back (passwords). */
  writeOnly?: boolean;
  /** Settable on create, refused on update. */
  lockedAfterCreate?: boolean;
  /** Shown in forms but never set by them: only its default on create, the stored value on update (a charging rate's type). */
  fixed?: boolean;
  /** Value must be unique in the table (among rows not in trash); message key on clash. */
  unique?: 'already_taken' | 'already_exist';
  default?: string | number | boolean | null;
  privileges?: string[];
  min?: number;
  max?: number;
  maxLength?: number;
  /** Maximum number of selected items for a multiselect. */
  limit?: number;
  /** Must equal another field's value (confirm password). Checked only when both are sent. */
  sameAs?: string;
  /** The input is off in forms while this boolean field is set (every site ticked: no site list to pick). */
  disabledWhenSet?: string;
  /** The input is off in forms while another field holds one of these values (a Tesla bay's connector). */
  disabledWhen?: Record<string, (string | number)[]>;
  /** The input is off in forms unless another field holds one of these values (only a Tesla bay's site is chosen). */
  disabledUnless?: Record<string, (string | number)[]>;
}

export type ResourceAction = 'create' | 'edit' | 'view' | 'editview' | 'delete' | 'popView' | 'downloadPdf' | 'excel';

export interface SiteScope {
  /** Column of this table holding the site id. */
  column?: string;
  /** Column of this table holding a charger id; the site is that charger's loc_id. */
  cpColumn?: string;
}

/**
 * How a resource's records are offered as an option list (GET /api/options?opts=<key>) and checked
 * when a form names one: only records the user may see, not in trash, matching `only`.
 */
export interface OptionSource {
  /** Field stored as the option's value (default: the id field). */
  value?: string;
  /** Field shown; several fields are joined by a space; per language when they differ (a blank one shows the other language's). */
  label: string | string[] | { en: string; 'zh-TW': string };
  /**
   * A field added in brackets for users who may read the resource itself (an account's mobile number);
   * users granted the list only to pick from it see the record's id there instead.
   */
  detail?: string;
  /** A field referring to another resource whose option label follows in brackets (a zone names its site). */
  qualifiedBy?: string;
  /** Only records with these values. */
  only?: Record<string, string | number>;
  /** Sorted by these fields first, then by label. */
  orderBy?: { field: string; desc?: boolean }[];
  /** Only records whose this column (a role level) is at most the user's own level: nobody hands out more than they have. */
  atMostUserLevel?: string;
}

export interface ResourceDef {
  key: string;
  table: string;
  idField: string;
  /** Column whose value names a record in messages (confirm texts, audit). */
  titleField?: string;
  /** The resource's name and a label per column and field, in both languages (i18n resources.<key>.*). */
  labels: ResourceLabels;
  /** Offered as an option list under its key: forms and filters of other resources pick its records. */
  asOption?: OptionSource;
  /** Privilege stem when it differs from the key (user_profile reads as USERS for others). */
  privilegeKey?: string;
  columns: ColumnDef[];
  fields: FieldDef[];
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  defaultFilters?: Record<string, string | number | (string | number)[]>;
  pageSizes?: number[];
  defaultPageSize?: number;
  actions: ResourceAction[];
  /**
   * Rows holding one of these values are neither edited nor deleted (a voucher campaign, a redeemed
   * voucher): the portal offers no edit or delete for them and the server answers 400 not_editable.
   */
  lockedWhen?: Record<string, (string | number)[]>;
  /** Named privileges a row's edit and delete also need (account_vehicles: EDIT_ACCOUNT_VEHICLE, spec part 2 §6). */
  rowActionPrivileges?: string[];
  /** Deleted rows keep existing with deleted_at set; they show only with trash=1. */
  softDelete?: boolean;
  editConfirm?: boolean;
  site?: SiteScope;
  /**
   * Listed with the spec's locId parameter (its charge-point reference call, part 2 §7), the site
   * column is answered as {loc_id, address} (part 2 §5); the portal's own lists keep the id.
   */
  siteAsReference?: boolean;
  /** A read-only log: no create, edit or delete whatever the privileges say. */
  readOnly?: boolean;
  /** Only roles named here may use it at all (privileges is super_admin only). */
  roles?: string[];
  /**
   * Other names the spec's calls give a filter parameter (cp_requests: connector_required for
   * connector_id, type for request_type). Every resource with a site column also takes locId.
   */
  paramAliases?: Record<string, string>;
  /** Its records are chargers: the OCPP commands of spec §7 (/{key}/rsrStartCharger/{id} …) are sent to them. */
  commandable?: boolean;
  /**
   * Its screens start, stop and unlock chargers (the RSR screens, spec part 2 §6): POST /{key}/rsrStartCharger,
   * rsrStopCharger and unlockCharger/{cp_id} (and Get LP) work from it as from the chargers' resource, same checks.
   */
  chargerCommands?: boolean;
  /** Its records hold live state (a charger's connection and statuses): the view page reads the record again every few seconds. */
  liveView?: boolean;
}

/** Whether the definition's lockedWhen locks this record (no edit or delete in the portal, 400 not_editable on the server). */
export function isLockedRecord(def: Pick<ResourceDef, 'lockedWhen'>, record: Record<string, unknown> | undefined): boolean {
  return !!record && Object.entries(def.lockedWhen ?? {}).some(([f, values]) => values.some((v) => String(v) === String(record[f])));
}

export const DEFAULT_PAGE_SIZES = [20, 50, 100, 200];
/** The page sizes of spec part 2's lists (accounts … app_config), 10 first; the platform lists keep the default. */
export const PART2_PAGE_SIZES = [10, 20, 50, 100];
/** The largest size a list accepts: the spec's calls ask for 99999 to mean "all". */
export const MAX_PAGE_SIZE = 99999;
/**
 * The most rows one page returns, whatever size was asked for: the largest page the spec itself
 * asks for (a session's meter values, 50,000). A list answers how it capped (sizeCappedTo).
 */
export const LIST_PAGE_CAP = 50_000;
/** An Excel export past this many rows is cut (its last row says so); the portal warns before it starts. */
export const EXPORT_ROW_LIMIT = 1_000_000;
