// The public API of @keel/devtools: trace runs to a file, and view them in a browser.
export { fileTrace, type FileTrace, type FileTraceOptions } from './trace/file-trace';
export { startDevtools, DEFAULT_PORT, type DevtoolsOptions, type DevtoolsServer } from './server/start-devtools';
export { DevtoolsError, type DevtoolsProblem } from './errors/devtools-error';
