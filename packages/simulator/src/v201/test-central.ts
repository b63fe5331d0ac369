import { afterEach, beforeEach } from 'vitest';
import { TestCentral } from '../test-central.ts';
import type { SimulatedChargerOptions } from '../link.ts';
import { SimulatedCharger201 } from './simulated-charger.ts';

/**
 * withTestCentral for 2.0.1: each test gets a fresh strict 2.0.1 TestCentral (`t.central`) and a
 * station factory whose stations are all stopped after the test.
 */
export function withTestCentral201(defaults: Partial<SimulatedChargerOptions>) {
  const started: SimulatedCharger201[] = [];
  const t = {
    central: undefined as unknown as TestCentral,
    charger(options: Partial<SimulatedChargerOptions> = {}): SimulatedCharger201 {
      const cp = new SimulatedCharger201({ url: t.central.url, cpNo: 'CS001', connectors: 1, ...defaults, ...options });
      started.push(cp);
      return cp;
    },
  };
  beforeEach(async () => {
    t.central = await new TestCentral('ocpp2.0.1').start();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((cp) => cp.stop()));
    await t.central.close();
  });
  return t;
}
