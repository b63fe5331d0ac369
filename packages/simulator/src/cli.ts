import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runFleet, type FleetProtocol, type Scenario } from './fleet.ts';
import type { SimLogger } from './link.ts';

const HELP = `Simulates OCPP 1.6-J and 2.0.1 chargers against a central system.

Usage: npm run simulate -- [options]

  --url <ws-url>             central system endpoint, the charger id is appended (default ws://localhost:8080/ocpp)
  --count <n>                number of chargers (default 1)
  --protocol <name>          ocpp1.6 | ocpp2.0.1 | mixed (default ocpp1.6); mixed: every second charger
                             (SIM002, SIM004 …) speaks 2.0.1, the others 1.6
  --prefix <text>            charger id prefix: SIM -> SIM001, SIM002 … (default SIM)
  --start-index <n>          number of the first charger (default 1)
  --connectors <1|2>         connectors per charger, EVSEs of one connector each in 2.0.1 (default 1)
  --password <text>          HTTP Basic password of every charger (default none); an AuthorizationKey
                             the central system sets replaces it until the simulator ends
  --ca <file>                wss://: PEM file of the CA that signed the central system's certificate
  --insecure                 wss://: accept any certificate (self-signed, tests only)
  --scenario <name>          idle | charge-loop (default idle)
  --meter-interval <s>       MeterValues period during a session (default 60)
  --heartbeat-interval <s>   overrides the interval the central system gives
  --id-tags <a,b,…>          id tags the charge loop presents (default SIMTAG0001…SIMTAG0004)
  --idle <min-max>           charge-loop: seconds between sessions (default 5-30)
  --charge <min-max>         charge-loop: seconds a session lasts (default 30-120)
  --status-interval <s>      seconds between status lines (default 5)
  --firmware-fail <step>     UpdateFirmware fails: download | install | version (boots with the old version)
  --firmware-step <ms>       pause between FirmwareStatusNotifications (default 2000)
  --verbose                  log failed calls and connection retries
  --help                     this text

Ctrl-C ends running sessions and closes every charger; a second Ctrl-C exits at once.`;

function range(text: string | undefined, fallback: [number, number]): [number, number] {
  if (!text) return fallback;
  const [min, max = min] = text.split('-').map(Number);
  if (!Number.isFinite(min) || !Number.isFinite(max) || min < 0 || max < min) fail(`bad range: ${text} (want min-max seconds)`);
  return [min, max];
}

function int(text: string | undefined, name: string, fallback?: number): number | undefined {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} wants a whole number, got ${text}`);
  return n;
}

function fail(message: string): never {
  console.error(`${message}\nSee --help.`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      url: { type: 'string', default: 'ws://localhost:8080/ocpp' },
      count: { type: 'string', default: '1' },
      protocol: { type: 'string', default: 'ocpp1.6' },
      prefix: { type: 'string', default: 'SIM' },
      'start-index': { type: 'string', default: '1' },
      connectors: { type: 'string', default: '1' },
      password: { type: 'string' },
      ca: { type: 'string' },
      insecure: { type: 'boolean', default: false },
      scenario: { type: 'string', default: 'idle' },
      'meter-interval': { type: 'string', default: '60' },
      'heartbeat-interval': { type: 'string' },
      'id-tags': { type: 'string' },
      idle: { type: 'string' },
      charge: { type: 'string' },
      'status-interval': { type: 'string', default: '5' },
      'firmware-fail': { type: 'string' },
      'firmware-step': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values;
} catch (err) {
  fail((err as Error).message);
}

if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const scenario = args.scenario as Scenario;
if (scenario !== 'idle' && scenario !== 'charge-loop') fail(`unknown scenario: ${args.scenario}`);
const protocol = args.protocol as FleetProtocol;
if (!['ocpp1.6', 'ocpp2.0.1', 'mixed'].includes(protocol)) fail(`--protocol is ocpp1.6, ocpp2.0.1 or mixed, got ${args.protocol}`);
const connectors = int(args.connectors, 'connectors')!;
if (connectors < 1 || connectors > 2) fail('--connectors is 1 or 2');

function firmwareFail(text: string | undefined): 'download' | 'install' | 'version' | undefined {
  if (text === undefined || text === 'download' || text === 'install' || text === 'version') return text;
  fail(`--firmware-fail is download, install or version, got ${text}`);
}

const line = (level: string) => (obj: object, msg?: string) => console.error(`${level} ${msg ?? ''} ${JSON.stringify(obj)}`);
const logger: SimLogger | undefined = args.verbose ? { warn: line('WARN'), debug: line('DEBUG') } : undefined;

const fleet = runFleet({
  url: args.url,
  count: int(args.count, 'count')!,
  protocol,
  prefix: args.prefix,
  startIndex: int(args['start-index'], 'start-index'),
  connectors,
  password: args.password,
  ...(args.ca || args.insecure ? { tls: { ...(args.ca ? { ca: readFileSync(args.ca) } : {}), rejectUnauthorized: !args.insecure } } : {}),
  scenario,
  meterIntervalSec: int(args['meter-interval'], 'meter-interval'),
  heartbeatIntervalSec: int(args['heartbeat-interval'], 'heartbeat-interval'),
  idTags: args['id-tags']?.split(',').map((t) => t.trim()).filter(Boolean),
  idleSec: range(args.idle, [5, 30]),
  chargeSec: range(args.charge, [30, 120]),
  firmware: { stepMs: int(args['firmware-step'], 'firmware-step'), fail: firmwareFail(args['firmware-fail']) },
  logger,
});
console.log(`${fleet.chargers.length} chargers (${fleet.chargers[0]?.cpNo}…, ${protocol}) → ${args.url}, scenario ${scenario}`);

const status = () => {
  const s = fleet.stats();
  const time = new Date().toTimeString().slice(0, 8);
  console.log(`${time} connected ${s.connected}/${s.chargers} charging ${s.charging} sessions ${s.sessionsCompleted}/${s.sessionsStarted} sent ${s.messagesSent} commands ${s.commandsReceived} queued ${s.queued} errors ${s.errors}`);
};
const timer = setInterval(status, (int(args['status-interval'], 'status-interval') || 5) * 1000);

let stopping = false;
process.on('SIGINT', async () => {
  if (stopping) process.exit(1);
  stopping = true;
  clearInterval(timer);
  console.log('\nstopping: ending sessions and closing chargers (Ctrl-C again to exit now)');
  await fleet.stop();
  status();
  process.exit(0);
});
process.once('SIGTERM', () => process.emit('SIGINT'));
