/**
 * npm run sandbox -- --port <n> [--time-scale <f>] [--data <dir>] [--signed-payload body|timestamp.body] [--fee-percent 1.95] [--delivery-timeout-ms <ms>]
 * First stdout line: the ready JSON. Structured logs go to stderr. SIGTERM / SIGINT stop it cleanly.
 */
import { parseArgs } from 'node:util';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from './server.js';
import { percentToBasisPoints } from '../shared/money.js';
import { stopWithParent } from '../shared/stop-with-parent.js';

const USAGE =
  'Usage: npm run sandbox -- [--port <n>] [--time-scale <f>] [--data <dir>] [--signed-payload body|timestamp.body] [--fee-percent 1.95] [--prompt-timeout-ms <ms>] [--delivery-timeout-ms <ms>]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function main(): void {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        'time-scale': { type: 'string', default: '1' },
        data: { type: 'string' },
        'signed-payload': { type: 'string', default: 'body' },
        'fee-percent': { type: 'string', default: '1.95' },
        'prompt-timeout-ms': { type: 'string', default: '60000' },
        'delivery-timeout-ms': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('--port must be a whole number from 0 to 65535');
  const timeScale = Number(values['time-scale']);
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) fail('--time-scale must be a positive number, such as 0.01');
  const signedPayload = values['signed-payload'];
  if (signedPayload !== 'body' && signedPayload !== 'timestamp.body') fail('--signed-payload must be body or timestamp.body');
  let feeBasisPoints: number;
  try {
    feeBasisPoints = percentToBasisPoints(values['fee-percent'] as string);
  } catch (error) {
    fail(`--fee-percent: ${(error as Error).message}`);
  }
  const promptTimeoutMs = Number(values['prompt-timeout-ms']);
  if (!(promptTimeoutMs > 0)) fail('--prompt-timeout-ms must be a positive number');
  let deliveryTimeoutMs: number | undefined;
  if (values['delivery-timeout-ms'] !== undefined) {
    deliveryTimeoutMs = Number(values['delivery-timeout-ms']);
    if (!(deliveryTimeoutMs > 0) || !Number.isFinite(deliveryTimeoutMs)) fail('--delivery-timeout-ms must be a positive number');
  }
  const dataDir = values.data ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'momo-till-sandbox');

  startSandbox({ port, host: values.host, timeScale, dataDir, signedPayload, feeBasisPoints, promptTimeoutMs, deliveryTimeoutMs }).then(
    (sandbox) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'signal', signal })}\n`);
        sandbox.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(error);
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
      stopWithParent(stop);
      // Ready only once it can also be stopped.
      process.stdout.write(
        `${JSON.stringify({ ready: true, baseUrl: sandbox.baseUrl, merchantId: sandbox.merchantId, keys: sandbox.keys })}\n`,
      );
    },
    (error: unknown) => {
      console.error(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

main();
