export type { AttemptReason } from './attempt-reason';
export { telemetry, type TelemetryOptions } from './telemetry';
