import { describe, expect, it } from 'vitest';
import { configSummary } from './RuleConfigEditor.tsx';

const t = (key: string) => key.replace('ui.campaignRules.', '');

describe('a campaign rule in the rules table', () => {
  it('names a weekday run by its shorthand (spec part 2 §4: 1-5 Mon-Fri, 1-6 Mon-Sat, 1-7 Mon-Sun), other days singly', () => {
    expect(configSummary('DayInclude', '["1-5"]', t)).toBe('monFri');
    expect(configSummary('DayInclude', '[1,2,3,4,5]', t)).toBe('monFri');
    expect(configSummary('DayInclude', '["1-5",7]', t)).toBe('monFri, weekday.7');
    expect(configSummary('DayInclude', '["1-6"]', t)).toBe('monSat');
    expect(configSummary('DayInclude', '["1-7"]', t)).toBe('monSun');
    expect(configSummary('DayInclude', '[2,4]', t)).toBe('weekday.2, weekday.4');
    expect(configSummary('TimeInclude', '[{"start":"22:00","end":"02:00"}]', t)).toBe('22:00–02:00');
  });
});
