/** The settings domain's front door (what other folders may use): the till's settings and their checks, both environments' service configs and secrets, the counter's options. */
export { counterFromInput, counterView } from './counter-settings.js';
export { ServiceConfigs } from './service-configs.js';
export { SettingsStore, isComplete, missingSettings, toView } from './settings-store.js';
export type { EnvironmentConfig } from './settings-store.js';
export { validateEnvironmentInput } from './settings-validation.js';
export type { CleanEnvironmentInput } from './settings-validation.js';
export type { ServiceCredentials } from './service-configs.js';
