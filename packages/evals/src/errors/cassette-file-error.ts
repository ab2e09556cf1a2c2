import { keelError } from '@keel/core/internal';

/**
 * Why a cassette file cannot be used: `missing` (replay of a file that does not exist),
 * `unreadable` (the file system refused), `invalid-json`, `invalid-format` (JSON, but not a
 * cassette: a hand edit went wrong), `version` (a cassette format this version does not read),
 * `locked` (another writer held the file's lock too long), `unwritable`.
 */
export type CassetteFileProblem = 'missing' | 'unreadable' | 'invalid-json' | 'invalid-format' | 'version' | 'locked' | 'unwritable';

/** A cassette file is missing, corrupt, of another format version, or cannot be written. */
export class CassetteFileError extends keelError('CassetteFileError', { retryable: false, errorKind: 'bad-request' }) {
  readonly path: string;
  readonly problem: CassetteFileProblem;

  constructor({ path, problem, detail, cause }: { path: string; problem: CassetteFileProblem; detail: string; cause?: unknown }) {
    super({ message: `Cassette ${path}: ${detail}`, cause });
    this.path = path;
    this.problem = problem;
  }
}
