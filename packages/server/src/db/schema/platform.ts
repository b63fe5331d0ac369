import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const creDttm = () => tz('cre_dttm').notNull().defaultNow();
export const lupdDttm = () => tz('lupd_dttm').notNull().defaultNow();
/** Soft delete marker: rows with it set show only in trash mode. */
export const deletedAt = () => tz('deleted_at');
export { tz };

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  role: text('role').notNull(),
  name_chi: text('name_chi').notNull(),
  level: integer('level').notNull().default(10),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
}, (t) => [uniqueIndex('roles_role_uq').on(t.role)]);

export const privileges = pgTable('privileges', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  enable_flag: smallint('enable_flag').notNull().default(1),
}, (t) => [uniqueIndex('privileges_name_uq').on(t.name)]);

export const role_privileges = pgTable('role_privileges', {
  role_id: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  privilege_id: integer('privilege_id').notNull().references(() => privileges.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.role_id, t.privilege_id] })]);

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  role_id: integer('role_id').notNull().references(() => roles.id),
  username: text('username').notNull(),
  email: text('email'),
  password_hash: text('password_hash').notNull(),
  active: smallint('active').notNull().default(1),
  cp_loc_flag: smallint('cp_loc_flag').notNull().default(1),
  cre_dttm: creDttm(),
  lupd_dttm: lupdDttm(),
  deleted_at: deletedAt(),
}, (t) => [uniqueIndex('users_username_uq').on(t.username).where(sql`deleted_at is null`)]);

/** Sites a user is restricted to when cp_loc_flag is 0 (the users.loc_id multiselect). */
export const user_sites = pgTable('user_sites', {
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  loc_id: integer('loc_id').notNull(),
}, (t) => [primaryKey({ columns: [t.user_id, t.loc_id] })]);

export const login_tokens = pgTable('login_tokens', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  token_hash: text('token_hash').notNull(),
  ip: text('ip'),
  cre_dttm: creDttm(),
  last_used_dttm: tz('last_used_dttm').notNull().defaultNow(),
  expires_at: tz('expires_at').notNull(),
  revoked_at: tz('revoked_at'),
}, (t) => [uniqueIndex('login_tokens_hash_uq').on(t.token_hash), index('login_tokens_user_idx').on(t.user_id)]);

export const user_log = pgTable('user_log', {
  user_log_id: serial('user_log_id').primaryKey(),
  type: text('type').notNull(),
  username: text('username'),
  msg: text('msg'),
  ip: text('ip'),
  user_id: integer('user_id'),
  cre_dttm: creDttm(),
}, (t) => [
  // (cre_dttm, id): a date range's ids come from the index alone (list.ts sorts them), and a sort by time pages by index.
  index('user_log_cre_dttm_id_idx').on(t.cre_dttm, t.user_log_id),
  index('user_log_type_idx').on(t.type, t.user_log_id),
  index('user_log_username_idx').on(t.username, t.user_log_id),
  // A user's own log (the users view's tab) by id, newest first.
  index('user_log_user_id_idx').on(t.user_id, t.user_log_id),
]);

export const portal_action_log = pgTable('portal_action_log', {
  id: serial('id').primaryKey(),
  action: text('action').notNull(),
  target: text('target').notNull(),
  target_id: text('target_id'),
  old_data: jsonb('old_data'),
  new_data: jsonb('new_data'),
  remark: text('remark'),
  cre_user: text('cre_user'),
  user_id: integer('user_id'),
  cre_dttm: creDttm(),
}, (t) => [index('portal_action_log_target_idx').on(t.target, t.target_id)]);

/** Key/value settings of the application (home_screen: LMS | Dashboard | CpList, ...). */
export const app_settings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  lupd_dttm: lupdDttm(),
});
