/**
 * The update decisions against a STAND-IN UPDATER (electron-updater needs the Electron binary): an event
 * emitter with electron-updater's method and event names, recording what the till asked of it.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { UpdateController, type Updater } from '../../../../electron/core/updates/index.js';

class StandInUpdater extends EventEmitter {
  autoDownload = true;
  autoInstallOnAppQuit = false;
  checks = 0;
  downloads = 0;
  installs = 0;
  checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    this.emit('checking-for-update');
    return Promise.resolve(null);
  }
  downloadUpdate(): Promise<unknown> {
    this.downloads += 1;
    return Promise.resolve([]);
  }
  quitAndInstall(): void {
    this.installs += 1;
  }
}

function setUp(waiting = { count: 0 }) {
  const updater = new StandInUpdater();
  const controller = new UpdateController(updater as unknown as Updater, { version: '1.2.0', paymentsWaiting: () => waiting.count });
  return { updater, controller, waiting };
}

describe('updates: when to download, when to install, what the owner sees', () => {
  it('downloads itself, not electron-updater on its own, and installs on quit', () => {
    const { updater } = setUp();
    expect(updater.autoDownload).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(true);
  });

  it('shows the running version and "up to date" after a check finds nothing', async () => {
    const { updater, controller } = setUp();
    await controller.check();
    expect(controller.status()).toMatchObject({ version: '1.2.0', phase: 'checking' });
    updater.emit('update-not-available');
    expect(controller.status()).toEqual({ version: '1.2.0', phase: 'idle', available: null, percent: null, message: 'Up to date.' });
  });

  it('downloads a found update in the background once, showing its progress, then "ready"', () => {
    const { updater, controller } = setUp();
    updater.emit('update-available', { version: '1.3.0' });
    updater.emit('update-available', { version: '1.3.0' });
    expect(updater.downloads).toBe(1);
    updater.emit('download-progress', { percent: 41.6 });
    expect(controller.status()).toMatchObject({ phase: 'downloading', available: '1.3.0', percent: 42 });
    updater.emit('update-downloaded', { version: '1.3.0' });
    expect(controller.status()).toMatchObject({ phase: 'ready', available: '1.3.0', percent: null });
    expect(controller.status().message).toContain('Version 1.3.0 is ready');
    expect(updater.installs).toBe(0);
  });

  it('never restarts into the update with a payment waiting for its result; does once none is', () => {
    const { updater, controller, waiting } = setUp({ count: 1 });
    updater.emit('update-available', { version: '1.3.0' });
    updater.emit('update-downloaded', { version: '1.3.0' });
    expect(controller.restart()).toEqual({ restarting: false, reason: 'payment-waiting' });
    expect(updater.installs).toBe(0);
    waiting.count = 0;
    expect(controller.restart()).toEqual({ restarting: true });
    expect(updater.installs).toBe(1);
  });

  it('has nothing to restart into before an update is downloaded', () => {
    const { updater, controller } = setUp();
    expect(controller.restart()).toEqual({ restarting: false, reason: 'no-update-ready' });
    updater.emit('update-available', { version: '1.3.0' });
    expect(controller.restart()).toEqual({ restarting: false, reason: 'no-update-ready' });
    expect(updater.installs).toBe(0);
  });

  it('keeps a downloaded update ready when a later check fails, and says a failed check will be retried', () => {
    const { updater, controller } = setUp();
    updater.emit('error', new Error('feed unreachable'));
    expect(controller.status()).toMatchObject({ phase: 'failed' });
    expect(controller.status().message).toContain('tries again');
    updater.emit('update-available', { version: '1.3.0' });
    updater.emit('update-downloaded', { version: '1.3.0' });
    updater.emit('checking-for-update');
    updater.emit('error', new Error('feed unreachable'));
    expect(controller.status()).toMatchObject({ phase: 'ready', available: '1.3.0' });
  });

  it('a failed download is shown and the next check downloads again', () => {
    const { updater, controller } = setUp();
    updater.downloadUpdate = () => {
      updater.downloads += 1;
      return Promise.reject(new Error('sha512 checksum mismatch'));
    };
    updater.emit('update-available', { version: '1.3.0' });
    return expect
      .poll(() => controller.status().phase)
      .toBe('failed')
      .then(() => {
        updater.emit('update-available', { version: '1.3.0' });
        expect(updater.downloads).toBe(2);
      });
  });

  it('without an updater (a copy run from source or browser mode) it says so and never restarts', () => {
    const controller = new UpdateController(null, { version: '1.2.0', paymentsWaiting: () => 0 });
    controller.start();
    expect(controller.status()).toMatchObject({ phase: 'off', version: '1.2.0' });
    expect(controller.restart()).toEqual({ restarting: false, reason: 'no-update-ready' });
  });
});
