import type { CommandOutcome } from '../command-types.ts';
import { Charger201 } from './charger.ts';
import { handleCommand201 } from './commands.ts';

/** The OCPP 2.0.1 charging station simulated: the station (charger.ts) answering the CSMS's messages (commands.ts). */
export class SimulatedCharger201 extends Charger201 {
  protected answer(method: string, params: any): Promise<CommandOutcome> {
    return handleCommand201(this, method, params);
  }
}
