import type { ResourceDef } from '@ev/core';
import type { Sql } from '../../db/client.ts';
import type { AuthUser } from '../../auth/session.ts';
import type { Filter } from '../list-query.ts';

export interface WriteContext {
  sql: Sql;
  user: AuthUser;
  def: ResourceDef;
  mode: 'create' | 'update';
  /** The record before the write (update only), as stored. */
  old?: Record<string, any>;
}

/**
 * Behaviour a definition cannot express, beside it. Every member is optional; the engine does
 * the rest from the definition.
 */
export interface ResourceHooks {
  /**
   * SQL expressions (over table alias t) for columns that are not physical columns of the table.
   * {display_tz} stands for the display time zone, for datetimes formatted inside JSON.
   */
  virtualColumns?: Record<string, string>;
  /**
   * Turns validated form data into table columns: hash passwords, drop confirmations, take out
   * what afterWrite stores elsewhere. Returns the columns to write. May throw HttpError.
   */
  beforeWrite?(ctx: WriteContext, data: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Runs in the same transaction after the row is written, with the validated form data. */
  afterWrite?(ctx: WriteContext, id: number, data: Record<string, unknown>): Promise<void>;
  /** A message key shown in the delete confirmation (e.g. what else the delete affects). */
  checkDelete?(sql: Sql, id: number, user: AuthUser): Promise<string | undefined>;
  /** Runs in the delete transaction before the row is deleted; may throw HttpError to refuse. */
  beforeDelete?(sql: Sql, row: Record<string, any>, user: AuthUser): Promise<void>;
  /** Extra WHERE condition (over alias t) limiting what this user may see at all. */
  visibleTo?(user: AuthUser): string | undefined;
  /**
   * A column's filter condition (over alias t) in place of the plain one (the filter's operator on
   * the column), where the plain one would read too much: add() adds a parameter and returns its
   * placeholder. cp_requests: cp_no is matched in cps, then read through the cp_id index.
   */
  filters?: Record<string, (f: Filter, add: (value: unknown) => string) => string>;
}
