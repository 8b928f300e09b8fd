/**
 * ops/: settings, metrics and logs. Every other relay folder may use what is exported here.
 *
 * The config file and environment with the limits on clients, Prometheus metrics, JSON-line logs and
 * the summary of repeated warnings. The bottom layer: it imports only shared/.
 */
export {
  CONFIG_ENV_VARS,
  createRelayToken,
  describeConfigError,
  envOverrides,
  hashRelayToken,
  jsonErrorPlace,
  loadRelayConfig,
  parseRelayConfig,
  relayConfigSchema,
  relayKeySchema,
  relayTillSchema,
  TOKEN_HASH,
  type RelayConfig,
  type RelayConfigInput,
  type RelayKey,
} from './config.js';
export { RelayConfigError } from './config-error.js';
export { addTillToken, newLabelProblem, revokeTillToken } from './till-tokens.js';
export { defaultLog, type LogFn } from './logger.js';
export { RelayMetrics } from './metrics.js';
export { shareFields, showLimits } from './shares.js';
export { WarningSummary } from './warning-summary.js';
