// The public API of @keel/evals.

// Cassettes: recorded model calls, replayed offline
export { cassette, type Cassette, type CassetteMode, type CassetteOptions } from './cassette/cassette';
export { CassetteMissError, type CassetteDifference } from './errors/cassette-miss-error';
export { CassetteFileError, type CassetteFileProblem } from './errors/cassette-file-error';
export { RecordedCallError, type RecordedError } from './errors/recorded-call-error';
