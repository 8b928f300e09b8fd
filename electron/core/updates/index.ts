/** Updates of the app itself: when to download and install, and what the owner sees (decision.ts). */
export { UPDATE_PHASES, UpdateController, appUpdates } from './decision.js';
export type { CoreUpdateOptions, RestartAnswer, UpdateInfo, UpdateOptions, UpdatePhase, UpdateStatus, Updater } from './decision.js';
