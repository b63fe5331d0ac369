/**
 * A campaign rule's config normalised per type, exactly as core pricing.ts campaignRulePasses
 * reads it (spec part 2 §4, §5). Date entries of length ≤ 1 and time entries lacking a start or
 * an end are dropped (§5); anything else unusable is refused, so a saved rule means what it says.
 * Pure: the campaign_rule hook and the tests call it.
 */
export type RuleType = 'DateExclude' | 'TimeInclude' | 'DayInclude';
export const RULE_TYPES: readonly RuleType[] = ['DateExclude', 'TimeInclude', 'DayInclude'];

/** The weekday entries a DayInclude rule may hold besides 1..7 (Mon-Fri, Mon-Sat, Mon-Sun). */
export const WEEKDAY_SHORTHANDS = ['1-5', '1-6', '1-7'] as const;

export type RuleResult = { ok: true; config: string } | { ok: false; error: 'invalid' | 'format_error' | 'required' | 'end_equals_start' };

/** yyyy-MM-dd naming a real day. */
export function isIsoDate(v: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
}

/** 'H:mm' or 'HH:mm' (00:00..24:00) → 'HH:mm'; null when malformed. */
function hhmm(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{1,2}):(\d{2})$/.exec(v.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59 || h > 24 || (h === 24 && min !== 0)) return null;
  return `${String(h).padStart(2, '0')}:${m[2]}`;
}

function dates(list: unknown[]): RuleResult {
  const out = new Set<string>();
  for (const d of list) {
    // §5: entries of length 1 or less are dropped (an empty or one-character leftover of an editor).
    if (typeof d === 'string' && d.trim().length <= 1) continue;
    if (typeof d !== 'string' || !isIsoDate(d.trim())) return { ok: false, error: 'format_error' };
    out.add(d.trim());
  }
  return out.size ? { ok: true, config: JSON.stringify([...out].sort()) } : { ok: false, error: 'required' };
}

function times(list: unknown[]): RuleResult {
  const out: { start: string; end: string }[] = [];
  for (const r of list) {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return { ok: false, error: 'format_error' };
    const { start, end } = r as { start?: unknown; end?: unknown };
    // §5: a range lacking its start or its end is dropped.
    if (!start || !end) continue;
    const s = hhmm(start);
    const e = hhmm(end);
    if (!s || !e) return { ok: false, error: 'format_error' };
    // Equal ends never pass (pricing: an empty range); an end before the start runs past midnight.
    if (s === e) return { ok: false, error: 'end_equals_start' };
    if (!out.some((x) => x.start === s && x.end === e)) out.push({ start: s, end: e });
  }
  return out.length ? { ok: true, config: JSON.stringify(out) } : { ok: false, error: 'required' };
}

function days(list: unknown[]): RuleResult {
  const out: (number | string)[] = [];
  for (const d of list) {
    const text = typeof d === 'number' ? String(d) : typeof d === 'string' ? d.trim().replace(/\s+/g, '') : '';
    const entry = /^[1-7]$/.test(text) ? Number(text) : (WEEKDAY_SHORTHANDS as readonly string[]).includes(text) ? text : null;
    if (entry === null) return { ok: false, error: 'format_error' };
    if (!out.includes(entry)) out.push(entry);
  }
  if (!out.length) return { ok: false, error: 'required' };
  // Shorthands first, then single days in order: [ '1-5', 6 ].
  out.sort((a, b) => (typeof a === typeof b ? (a < b ? -1 : 1) : typeof a === 'string' ? -1 : 1));
  return { ok: true, config: JSON.stringify(out) };
}

/** The config of a rule of this type as stored: a JSON array string; or why it is refused. */
export function normaliseRuleConfig(type: string, config: unknown): RuleResult {
  let list: unknown = config;
  if (typeof config === 'string') {
    try {
      list = JSON.parse(config);
    } catch {
      return { ok: false, error: 'invalid' };
    }
  }
  if (!Array.isArray(list)) return { ok: false, error: 'invalid' };
  switch (type) {
    case 'DateExclude':
      return dates(list);
    case 'TimeInclude':
      return times(list);
    case 'DayInclude':
      return days(list);
    default:
      return { ok: false, error: 'invalid' };
  }
}
