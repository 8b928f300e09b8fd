/**
 * Which shell runs the core: the desktop app (Electron) or browser mode (the core under Node, the
 * renderer in a browser on loopback). Browser mode takes TEST payments only: a browser profile is a
 * weaker home for a live secret key than the desktop app, so the core itself refuses LIVE there.
 */
export const SHELLS = ['desktop', 'browser'] as const;
export type Shell = (typeof SHELLS)[number];

export const BROWSER_MODE_NO_LIVE =
  'LIVE is not available in browser mode: a browser profile is a weaker home for a live secret key than the desktop app. ' +
  'Open the till with the desktop app (npm start on a machine where Electron runs) to take real payments.';
