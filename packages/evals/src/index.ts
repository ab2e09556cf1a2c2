// The public API of @keel/evals.

// Cassettes: recorded model calls, replayed offline
export { cassette, type Cassette, type CassetteMode, type CassetteOptions } from './cassette/cassette';
export { CassetteError, type CassetteDifference, type CassetteProblem } from './errors/cassette-error';
export { RecordedCallError, type RecordedError } from './errors/recorded-call-error';

// Evals: an agent over a dataset, scored, with reliability figures
export { evaluate, defineEval } from './evaluate/evaluate';
export type { EvalAgent, EvalDefinition, EvalItem, ScoreInput, Scorer, ScoreResult, ScoreReturn } from './evaluate/eval-types';
export type { EvalReport, EvalSummary, ItemReliability, ItemReport, TokenCounts } from './evaluate/eval-report';
export { EvalConfigurationError } from './errors/eval-configuration-error';

// Scorers
export { exactMatch, type ExactMatchOptions } from './scorers/exact-match';
export { jsonSchemaValid } from './scorers/json-schema-valid';
export { scorer } from './scorers/custom-scorer';
export { llmJudge, type LlmJudgeOptions } from './scorers/llm-judge';

// Reports
export { compareReports, type CompareOptions, type Comparison, type Regression } from './compare/compare-reports';
export { htmlReport } from './report/html-report';
export { readReport } from './report/read-report';
