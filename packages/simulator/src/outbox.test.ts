import { expect, it } from 'vitest';
import { Outbox } from './outbox.ts';

it('sends a message pushed by the code that the previous answer woke', async () => {
  const sent: string[] = [];
  const outbox = new Outbox(async (method) => { sent.push(method); return {}; }, () => true);
  await outbox.push('StartTransaction', () => ({}), true);
  // Pushed while the drain that delivered the answer is still winding down (a stop on an invalid id).
  const next = outbox.push('StopTransaction', () => ({}), true);
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('never sent')), 500));
  await Promise.race([next, timeout]);
  expect(sent).toEqual(['StartTransaction', 'StopTransaction']);
  expect(outbox.length).toBe(0);
});
