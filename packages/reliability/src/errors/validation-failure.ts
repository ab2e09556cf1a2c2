import type { JsonDefect } from '../json/repair-names';
import type { ValidationIssue } from '../validation/issue';
import { keelError } from './keel-error';

/**
 * Which stage rejected the output: `json-parse` (not one JSON value), `schema-validate` (the
 * schema), `rule-check` (a PostDecide rule rejected a valid value with feedback).
 */
export type ValidationStage = 'json-parse' | 'schema-validate' | 'rule-check';

/** Constructor fields of {@link ValidationFailure}. */
interface ValidationFailureOptions {
  readonly stage: ValidationStage;
  readonly message: string;
  /** The model output that failed, as received. */
  readonly rawOutput: string;
  /** Normalised issues; for a parse failure, one `other` issue at the root. */
  readonly issues: readonly ValidationIssue[];
  /** The printed path of the first issue (`entries[0].confidence`), when there is one. */
  readonly pathText?: string;
  /** For a parse failure, the defect no lossless repair could fix (`truncated`, `ellipsis`...). */
  readonly defect?: JsonDefect;
  readonly cause?: unknown;
}

/**
 * Model output that failed JSON parsing or schema validation. Retryable: feedback describing
 * `issues` lets the model fix it.
 */
export class ValidationFailure extends keelError('ValidationFailure', { retryable: true }) {
  readonly stage: ValidationStage;
  readonly rawOutput: string;
  readonly issues: readonly ValidationIssue[];
  /** The printed path of the first issue (`entries[0].confidence`), when there is one. */
  readonly pathText?: string;
  readonly defect?: JsonDefect;

  constructor(options: ValidationFailureOptions) {
    super({ message: options.message, cause: options.cause });
    this.stage = options.stage;
    this.rawOutput = options.rawOutput;
    this.issues = options.issues;
    if (options.pathText !== undefined) this.pathText = options.pathText;
    if (options.defect !== undefined) this.defect = options.defect;
  }
}
