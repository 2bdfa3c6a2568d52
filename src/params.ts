/**
 * Query-parameter parsing shared by every endpoint. Each parser reads one parameter, records a
 * problem naming it when it is invalid, and `ParamReader.done()` throws one INVALID_PARAMS error
 * listing every problem (not only the first). Unknown parameters are ignored (DECISIONS §4).
 */
import { ApiError } from './errors.ts';
import { MAX_PAGE } from './paths.ts';

/** One invalid parameter, as listed in `error.details.params`. */
export interface ParamProblem {
  param: string;
  message: string;
}

/** A positive decimal integer of at most nine digits (`MAX_PAGE`), so it is exact and cheap to check. */
const DIGITS = /^[1-9][0-9]{0,8}$/;

/** Reads and validates parameters of one request; call `done()` before using the values. */
export class ParamReader {
  readonly problems: ParamProblem[] = [];

  constructor(readonly params: URLSearchParams) {}

  /** The single value of `name`, or undefined; a repeated parameter is a problem. */
  raw(name: string): string | undefined {
    const all = this.params.getAll(name);
    if (all.length > 1) {
      this.fail(name, `${name} is given ${all.length} times; give it once`);
      return undefined;
    }
    return all[0];
  }

  /** Positive integer in [1, max] (decimal digits only: `1.5`, `1e3`, `-1`, `0`, `""` are invalid). */
  positiveInt(name: string, fallback: number, max = MAX_PAGE): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const n = DIGITS.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= max)) {
      this.fail(name, `${name} must be an integer from 1 to ${max}, got ${quote(value)}`);
      return fallback;
    }
    return n;
  }

  /** Non-negative integer (for `minStars`), or undefined when absent. */
  nonNegativeInt(name: string): number | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (!/^(0|[1-9][0-9]{0,14})$/.test(value)) {
      this.fail(name, `${name} must be an integer ≥ 0, got ${quote(value)}`);
      return undefined;
    }
    return Number(value);
  }

  /** One of a fixed set of values. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T;
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined;
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback?: T): T | undefined {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      this.fail(name, `${name} must be one of ${allowed.join(', ')}, got ${quote(value)}`);
      return fallback;
    }
    return value as T;
  }

  /** A member of a known set (category slugs, platform ids), named `what` in the message. */
  member(name: string, known: readonly string[], what: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (!known.includes(value)) {
      this.fail(name, `${name}: unknown ${what} ${quote(value)}`);
      return undefined;
    }
    return value;
  }

  /** `true`/`false` (also `1`/`0`). */
  boolean(name: string): boolean | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    this.fail(name, `${name} must be true or false, got ${quote(value)}`);
    return undefined;
  }

  /** Record a problem with `param`. */
  fail(param: string, message: string): void {
    this.problems.push({ param, message });
  }

  /** Throw INVALID_PARAMS listing every problem, if any. */
  done(): void {
    if (this.problems.length === 0) return;
    const message = `Invalid query parameter${this.problems.length > 1 ? 's' : ''}: ${this.problems.map((p) => p.message).join('; ')}`;
    throw new ApiError('INVALID_PARAMS', message, { details: { params: this.problems } });
  }
}

/** Quote a user value for a message, shortened so a huge parameter cannot bloat the error. */
export function quote(value: string): string {
  const short = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return JSON.stringify(short);
}
