/** The settings domain's front door (what other folders may use): the till's settings, both environments' service configs and secrets, the counter's options. */
export { ServiceConfigs } from './service-configs.js';
export { SettingsStore } from './settings-store.js';
export type { EnvironmentConfig } from './settings-store.js';
export type { CleanEnvironmentInput } from './settings-validation.js';
export type { ServiceCredentials } from './service-configs.js';
