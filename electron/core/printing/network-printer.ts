/**
 * Sends one job to an ESC/POS printer over TCP (port 9100 on most Ethernet and Wi-Fi thermal printers).
 * Before the job, the printer is asked for its real-time status (DLE EOT 2: cover, paper, error;
 * DLE EOT 4: paper roll), so an open cover or an empty roll is told to the cashier instead of a
 * receipt silently lost. The whole attempt, connection included, ends within `timeoutMs`.
 */
import { Socket } from 'node:net';

const STATUS_QUERY = Uint8Array.from([0x10, 0x04, 0x02, 0x10, 0x04, 0x04]);

export type NetworkPrinterTarget = { host: string; port: number };

export class PrinterError extends Error {
  override name = 'PrinterError';
}

/** Reads the two status bytes (offline cause, paper roll); null while both are fine. */
export function statusProblem(offline: number, paper: number): string | null {
  if ((offline & 0x20) !== 0 || (paper & 0x60) !== 0) return 'is out of paper: put in a new roll, then print again.';
  if ((offline & 0x04) !== 0) return 'has its cover open: close it, then print again.';
  if ((offline & 0x40) !== 0) return 'reports an error (paper jam or cutter): clear it, switch it off and on, then print again.';
  return null;
}

function connectionMessage(code: string | undefined, where: string, seconds: number): string {
  if (code === 'ECONNREFUSED')
    return `The printer at ${where} refused the connection: check it is switched on and that its address and port are right.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `No printer named ${where} was found on the network: check the printer's address in Settings.`;
  return `The printer at ${where} could not be reached within ${seconds} s: check it is switched on and connected to the network.`;
}

export function sendToNetworkPrinter(target: NetworkPrinterTarget, job: Uint8Array, timeoutMs: number): Promise<void> {
  const where = `${target.host}:${target.port}`;
  const seconds = Math.round(timeoutMs / 1000);
  return new Promise<void>((resolve, reject) => {
    const socket = new Socket();
    let stage: 'connecting' | 'status' | 'sending' | 'done' = 'connecting';
    let status: number[] = [];
    const finish = (error: PrinterError | null) => {
      if (stage === 'done') return;
      stage = 'done';
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => {
      if (stage === 'connecting') finish(new PrinterError(connectionMessage(undefined, where, seconds)));
      else if (stage === 'status')
        finish(
          new PrinterError(
            `The printer at ${where} connected but did not answer within ${seconds} s: it may be busy or stuck; check it, then print again.`,
          ),
        );
      else
        finish(new PrinterError(`The printer at ${where} did not take the whole receipt within ${seconds} s: check it, then print again.`));
    }, timeoutMs);

    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (stage === 'connecting') finish(new PrinterError(connectionMessage(error.code, where, seconds)));
      else finish(new PrinterError(`The connection to the printer at ${where} broke (${error.code ?? error.message}): print again.`));
    });
    socket.on('data', (chunk: Buffer) => {
      if (stage !== 'status') return;
      status = [...status, ...chunk];
      if (status.length < 2) return;
      const problem = statusProblem(status[0] ?? 0, status[1] ?? 0);
      if (problem) return finish(new PrinterError(`The printer at ${where} ${problem}`));
      stage = 'sending';
      socket.end(job, () => finish(null));
    });
    socket.on('close', () => {
      if (stage !== 'done')
        finish(new PrinterError(`The printer at ${where} closed the connection before the receipt was sent: print again.`));
    });
    socket.connect({ host: target.host, port: target.port }, () => {
      stage = 'status';
      socket.write(STATUS_QUERY);
    });
  });
}
