/**
 * When the till fetches and installs an update, and what the owner is shown: plain Node, driven by an
 * updater that looks like electron-updater's (the shell passes the real one; tests pass a stand-in).
 *
 * - Checked at start and every few hours; an update found is downloaded in the background at once (a
 *   download never touches a sale). electron-updater checks the download's sha512 against the feed's
 *   latest*.yml, and on macOS and Windows the OS signature, before it reports it downloaded.
 * - Installed only when the app quits anyway (electron-updater's autoInstallOnAppQuit), or when the owner
 *   chooses "Restart to update" AND no payment is waiting for its result in either environment: a
 *   restart then could leave the cashier without the answer while the customer is at the counter.
 * - An update replaces the program only: the data folder, the settings in it (TEST or LIVE included) and
 *   the keychain's secrets are where the next version opens them, and its migrations run on the data.
 */
export type UpdateInfo = { version: string };

/** The part of electron-updater's AppUpdater the till uses. */
export type Updater = {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(): void;
  on(event: 'checking-for-update' | 'update-not-available', listener: () => void): unknown;
  on(event: 'update-available' | 'update-downloaded', listener: (info: UpdateInfo) => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
};

export const UPDATE_PHASES = ['off', 'idle', 'checking', 'downloading', 'ready', 'failed'] as const;
export type UpdatePhase = (typeof UPDATE_PHASES)[number];

export type UpdateStatus = {
  /** The version running now. */
  version: string;
  phase: UpdatePhase;
  /** The version found on the feed (downloading or ready), else null. */
  available: string | null;
  /** Download progress, 0 to 100, while downloading. */
  percent: number | null;
  /** One line for the owner: what the till is doing about updates. */
  message: string;
};

export type RestartAnswer = { restarting: true } | { restarting: false; reason: 'no-update-ready' | 'payment-waiting' };

export type UpdateOptions = {
  version: string;
  /** How many payments are waiting for their result, in any environment. */
  paymentsWaiting: () => number;
  log?: (message: string) => void;
  /** Between two checks. Default four hours. */
  intervalMs?: number;
  /** True once the core has closed: the checks stop. */
  closed?: () => boolean;
};

const FOUR_HOURS = 4 * 60 * 60 * 1000;

export class UpdateController {
  private phase: UpdatePhase;
  private available: string | null = null;
  private percent: number | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly updater: Updater | null,
    private readonly options: UpdateOptions,
  ) {
    this.phase = updater ? 'idle' : 'off';
    if (!updater) return;
    // Downloads are started here, not by electron-updater, so a found update is fetched once and the state
    // the owner sees follows each step.
    updater.autoDownload = false;
    updater.autoInstallOnAppQuit = true;
    updater.on('checking-for-update', () => this.set(this.phase === 'ready' ? 'ready' : 'checking'));
    updater.on('update-not-available', () => this.set(this.phase === 'ready' ? 'ready' : 'idle'));
    updater.on('update-available', (info) => this.found(info.version));
    updater.on('download-progress', (p) => {
      if (this.phase === 'downloading') this.percent = Math.max(0, Math.min(100, Math.round(p.percent)));
    });
    updater.on('update-downloaded', (info) => {
      this.available = info.version;
      this.percent = null;
      this.set('ready');
    });
    updater.on('error', (error) => {
      this.options.log?.(`update: ${error.message}`);
      // A failed check or download leaves a downloaded update ready; otherwise the next check tries again.
      if (this.phase !== 'ready') this.set('failed');
    });
  }

  /** The first check now, then every interval. */
  start(): void {
    if (!this.updater || this.timer) return;
    void this.check();
    this.timer = setInterval(() => {
      if (this.options.closed?.()) this.stop();
      else void this.check();
    }, this.options.intervalMs ?? FOUR_HOURS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async check(): Promise<void> {
    if (!this.updater || this.phase === 'downloading') return;
    try {
      await this.updater.checkForUpdates();
    } catch (error) {
      this.options.log?.(`update check: ${(error as Error).message}`);
      if (this.phase !== 'ready') this.set('failed');
    }
  }

  status(): UpdateStatus {
    return { version: this.options.version, phase: this.phase, available: this.available, percent: this.percent, message: this.message() };
  }

  /** The owner's "Restart to update": only with an update downloaded and no payment waiting. */
  restart(): RestartAnswer {
    if (!this.updater || this.phase !== 'ready') return { restarting: false, reason: 'no-update-ready' };
    if (this.options.paymentsWaiting() > 0) return { restarting: false, reason: 'payment-waiting' };
    this.updater.quitAndInstall();
    return { restarting: true };
  }

  private found(version: string): void {
    if (this.phase === 'ready' && this.available === version) return;
    if (this.phase === 'downloading') return;
    this.available = version;
    this.percent = 0;
    this.set('downloading');
    this.updater?.downloadUpdate().catch((error: Error) => {
      this.options.log?.(`update download: ${error.message}`);
      this.percent = null;
      this.set('failed');
    });
  }

  private set(phase: UpdatePhase): void {
    this.phase = phase;
  }

  private message(): string {
    switch (this.phase) {
      case 'off':
        return 'Updates are installed by whoever installed this copy (it was not installed from a momo-till installer).';
      case 'idle':
        return 'Up to date.';
      case 'checking':
        return 'Checking for an update…';
      case 'downloading':
        return `Downloading version ${this.available ?? ''} in the background (${this.percent ?? 0}%). Sales go on as usual.`;
      case 'ready':
        return `Version ${this.available ?? ''} is ready: it installs when the till is closed, or restart to update now.`;
      case 'failed':
        return 'The last update check failed; the till tries again later.';
    }
  }
}

/** What the shell gives the core (part of TillCoreOptions). */
export type CoreUpdateOptions = {
  /** electron-updater's updater, in an installed app; absent: updates are off. */
  updater?: Updater;
};

/**
 * The core's controller, checking from now on: the shell's updater (none outside an installed app), asking the
 * payments what waits, stopping once the core has closed.
 */
export function appUpdates(
  updater: Updater | undefined,
  version = '0.1.0',
  openPayments: (environment: 'test' | 'live') => number,
  log: { warn(event: string, fields: { message: string }): void },
  closed: () => boolean,
): UpdateController {
  const controller = new UpdateController(updater ?? null, {
    version,
    paymentsWaiting: () => openPayments('test') + openPayments('live'),
    log: (message) => log.warn('update.failed', { message }),
    closed,
  });
  controller.start();
  return controller;
}
