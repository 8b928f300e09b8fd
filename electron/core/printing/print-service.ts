/**
 * The one print path of the till: receipts, NOT PAID slips, test pages and reports all go through
 * `print`. It never throws and never takes longer than PRINT_TIMEOUT_MS: a printer that is off,
 * unreachable, out of paper or slow becomes a message for the screen, and the sale goes on.
 * A second request for a job still printing gets the first one's answer (a double click prints once).
 */
import type { PrintDocument } from '../../../shared/receipt/print-document.js';
import { PRINT_TIMEOUT_MS, type ReceiptSettings } from '../../../shared/receipt/receipt-settings.js';
import type { Logger } from '../logger.js';
import { encodeEscPos } from './escpos.js';
import { PrinterError, sendToNetworkPrinter } from './network-printer.js';

/** The operating system's printers, reached through the Electron shell (absent in plain Node). */
export type SystemPrinter = {
  list(): Promise<Array<{ name: string; displayName: string }>>;
  /** Prints the window's current page silently (only the receipt shows in print media). */
  print(options: { deviceName: string; widthMm: number; heightMm: number }): Promise<void>;
};

/**
 * sent: on paper already (network printer). page: the screen draws the documents, then asks for
 * `printPage` (system printer). dialog: no printer set, the screen opens its own print view.
 */
export type PrintOutcome = { ok: true; deliver: 'sent' | 'page' | 'dialog' } | { ok: false; message: string };

const NO_SYSTEM_PRINTER = 'The system printer is only reachable from the desktop app. Choose a network printer or none in Settings.';

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PrinterError(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export class PrintService {
  private readonly inFlight = new Map<string, Promise<PrintOutcome>>();
  private pageJob: Promise<PrintOutcome> | null = null;

  constructor(
    private readonly deps: {
      settings: () => ReceiptSettings;
      systemPrinter: SystemPrinter | null;
      log: Logger;
      timeoutMs?: number;
    },
  ) {}

  private get timeoutMs(): number {
    return Math.min(this.deps.timeoutMs ?? PRINT_TIMEOUT_MS, PRINT_TIMEOUT_MS);
  }

  /** `key` names the job (e.g. "receipt:<payment id>"): a request for a job still printing joins it. */
  print(key: string, documents: readonly PrintDocument[]): Promise<PrintOutcome> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const job = this.run(documents).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
    return job;
  }

  private async run(documents: readonly PrintDocument[]): Promise<PrintOutcome> {
    const settings = this.deps.settings();
    if (settings.printer === 'none') return { ok: true, deliver: 'dialog' };
    if (settings.printer === 'system') {
      return this.deps.systemPrinter ? { ok: true, deliver: 'page' } : { ok: false, message: NO_SYSTEM_PRINTER };
    }
    if (!settings.host) return { ok: false, message: "The network printer's address is not set: enter it in Settings." };
    try {
      await sendToNetworkPrinter({ host: settings.host, port: settings.port }, encodeEscPos(documents, settings.paper), this.timeoutMs);
      this.deps.log.info('print.sent', { printer: 'network', documents: documents.length });
      return { ok: true, deliver: 'sent' };
    } catch (error) {
      return this.failed('network', error);
    }
  }

  /** The system printer prints the page the screen has drawn; one page job at a time. */
  printPage(heightMm: number): Promise<PrintOutcome> {
    if (this.pageJob) return this.pageJob;
    const job = this.runPage(heightMm).finally(() => {
      this.pageJob = null;
    });
    this.pageJob = job;
    return job;
  }

  private async runPage(heightMm: number): Promise<PrintOutcome> {
    const settings = this.deps.settings();
    const system = this.deps.systemPrinter;
    if (settings.printer !== 'system') return { ok: false, message: 'The system printer is not the chosen printer.' };
    if (!system) return { ok: false, message: NO_SYSTEM_PRINTER };
    const seconds = Math.round(this.timeoutMs / 1000);
    const name = settings.deviceName || 'the default printer';
    try {
      await withTimeout(
        system.print({ deviceName: settings.deviceName, widthMm: settings.paper, heightMm }),
        this.timeoutMs,
        `The printer ${name} did not take the receipt within ${seconds} s: check it is on and has paper, then print again.`,
      );
      this.deps.log.info('print.sent', { printer: 'system' });
      return { ok: true, deliver: 'sent' };
    } catch (error) {
      return this.failed('system', error);
    }
  }

  async listSystemPrinters(): Promise<Array<{ name: string; displayName: string }>> {
    if (!this.deps.systemPrinter) return [];
    return withTimeout(this.deps.systemPrinter.list(), this.timeoutMs, 'The list of printers did not come within 5 s.');
  }

  private failed(printer: string, error: unknown): PrintOutcome {
    const message = error instanceof PrinterError ? error.message : `The printer failed: ${(error as Error).message ?? String(error)}`;
    this.deps.log.warn('print.failed', { printer, message });
    return { ok: false, message };
  }
}
