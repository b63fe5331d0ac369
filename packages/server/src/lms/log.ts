import { EventEmitter } from 'node:events';
import type { LmsLogEntry } from '@ev/core';

/** Entries kept for a newly opened realtime log. */
const KEEP = 1000;

export interface LmsLogInput {
  locId: number;
  cpId: number | null;
  cpNo: string | null;
  level: LmsLogEntry['level'];
  kind: string;
  message: string;
}

/** What load management did, in memory, for the realtime log screen (/realtime/log). */
export class LmsLog extends EventEmitter<{ entry: [LmsLogEntry] }> {
  private readonly entries: LmsLogEntry[] = [];
  private nextId = 1;

  add(e: LmsLogInput): void {
    const entry: LmsLogEntry = {
      id: this.nextId++,
      at: new Date().toISOString(),
      loc_id: e.locId,
      cp_id: e.cpId,
      cp_no: e.cpNo,
      level: e.level,
      kind: e.kind,
      message: e.message,
    };
    this.entries.push(entry);
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
    this.emit('entry', entry);
  }

  recent(): LmsLogEntry[] {
    return [...this.entries];
  }
}
