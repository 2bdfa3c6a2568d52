/**
 * The one coded error of the runtime. Every failure an endpoint can answer with is an
 * `ApiError`: `code` comes from the spec's union, `status` is the HTTP status, `details`
 * (optional) is copied into the error body, `cause` keeps the original error.
 */

/** Every error code the API answers with (docs/api.md "Answers", docs/decisions.md §4). */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'INVALID_PARAMS'
  | 'RATE_LIMITED'
  | 'SERVER_ERROR'
  | 'METHOD_NOT_ALLOWED'
  | 'INVALID_QUERY'
  | 'QUERY_TOO_LONG'
  | 'INVALID_SYNTAX';

/** HTTP status for each code. The three search codes are 400 (docs/decisions.md §4). */
export const STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  NOT_FOUND: 404,
  INVALID_PARAMS: 400,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  METHOD_NOT_ALLOWED: 405,
  INVALID_QUERY: 400,
  QUERY_TOO_LONG: 400,
  INVALID_SYNTAX: 400,
};

/** The body of every error response: `{ error: { code, message, details? } }`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** A coded API error; thrown anywhere in the runtime, turned into a response by the handler. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? STATUS_OF[code];
    this.details = options.details;
  }

  /** The JSON body for this error. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

/** True for an `ApiError`, also one created by another copy of this module (a bundle). */
export function isApiError(value: unknown): value is ApiError {
  return (
    value instanceof ApiError ||
    (typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'ApiError' &&
      typeof (value as { code?: unknown }).code === 'string' && typeof (value as { status?: unknown }).status === 'number')
  );
}
