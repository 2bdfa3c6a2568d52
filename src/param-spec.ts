/**
 * The one schema language of the API's parameters: plain data, no zod, so the runtime (Service
 * Worker, edge Worker) carries no schema library. The endpoint table (src/endpoints.ts) declares
 * every path and query parameter with it; from that one declaration
 *
 * - `readQuery` validates a request's query with the exact messages of `ParamReader` (src/params.ts);
 * - `ParamsOf` gives the typed client its parameter types;
 * - src/param-zod.ts makes the zod schemas of the OpenAPI document and the MCP tools.
 *
 * The rules (docs/api.md "Parameters"): unknown parameters are ignored, a repeated parameter is
 * INVALID_PARAMS, every bad parameter is listed at once in `details.params`.
 */
import type { Manifest } from './manifest.ts';
import { ParamReader, quote } from './params.ts';
import { SLUG_RE } from './paths.ts';

/** What every parameter declares. */
interface ParamBase {
  /** One line for the OpenAPI document, the MCP tool and the client's docs. */
  readonly description: string;
  /** Must be given (a path parameter always is). Documents and types only: the API answers a missing one itself. */
  readonly required?: boolean;
  /** The value the API uses when it is absent (shown as the OpenAPI `default`). */
  readonly default?: string | number;
  /** What the OpenAPI document says beyond the client's and the tools' view (a rule the API answers with its own error). */
  readonly openapi?: { readonly minLength?: number; readonly description?: string; readonly required?: boolean };
}

/** A decimal integer from `min` to `max` (digits only: `1.5`, `1e3`, `+1`, `""` are invalid). */
export interface IntParam extends ParamBase {
  readonly kind: 'int';
  readonly min: 0 | 1;
  readonly max: number;
  readonly default?: number;
}

/** One of a fixed set of words. */
export interface EnumParam extends ParamBase {
  readonly kind: 'enum';
  readonly values: readonly [string, ...string[]];
  readonly default?: string;
}

/** A slug that must name one of the manifest's `categories` or `platforms` (`what` in the message). */
export interface MemberParam extends ParamBase {
  readonly kind: 'member';
  readonly of: 'categories' | 'platforms';
  readonly what: string;
}

/** `true`/`false` (also `1`/`0`). */
export interface BooleanParam extends ParamBase {
  readonly kind: 'boolean';
}

/**
 * Text. With `pattern`, a value that does not match is INVALID_PARAMS saying `mustBe`;
 * `maxLength` is documented only (the search answers QUERY_TOO_LONG itself).
 */
export interface TextParam extends ParamBase {
  readonly kind: 'text';
  readonly pattern?: RegExp;
  /** Completes "`<name>` must be …" when `pattern` fails. */
  readonly mustBe?: string;
  readonly maxLength?: number;
  readonly default?: string;
}

/** One parameter. */
export type Param = IntParam | EnumParam | MemberParam | BooleanParam | TextParam;

/** The query parameters of one endpoint, in the order they are read (and listed when invalid). */
export type QuerySpec = Readonly<Record<string, Param>>;

/**
 * A path parameter: one segment matching `pattern`, or with `rest`, every remaining segment
 * (at least one, each matching `pattern`), joined by `/`.
 */
export interface PathParam extends TextParam {
  readonly pattern: RegExp;
  readonly required: true;
  readonly rest?: boolean;
  /** A check of the whole decoded value (a rest path), beyond each segment's `pattern`. */
  readonly valid?: (value: string) => boolean;
}

/** The TypeScript type of a parameter's value. */
export type ValueOf<P extends Param> = P extends IntParam
  ? number
  : P extends { kind: 'enum'; values: readonly (infer V)[] }
    ? V
    : P extends BooleanParam
      ? boolean
      : string;

type RequiredKeys<Q extends QuerySpec> = { [K in keyof Q]: Q[K] extends { required: true } ? K : never }[keyof Q];

/** The parameter object of a query: required parameters required, the others optional. */
export type ParamsOf<Q extends QuerySpec> = { -readonly [K in RequiredKeys<Q>]: ValueOf<Q[K]> } & {
  -readonly [K in Exclude<keyof Q, RequiredKeys<Q>>]?: ValueOf<Q[K]> | undefined;
} extends infer T
  ? { [K in keyof T]: T[K] }
  : never;

type PresentKeys<Q extends QuerySpec> = { [K in keyof Q]: Q[K] extends { default: string | number } ? K : never }[keyof Q];

/** The values of a query as read: parameters with a default are always there (the API enforces no `required`). */
export type ValuesOf<Q extends QuerySpec> = { -readonly [K in PresentKeys<Q>]: ValueOf<Q[K]> } & {
  -readonly [K in Exclude<keyof Q, PresentKeys<Q>>]?: ValueOf<Q[K]> | undefined;
} extends infer T
  ? { [K in keyof T]: T[K] }
  : never;

/**
 * The values of `spec` read from `params`, absent ones at their default; throws one
 * INVALID_PARAMS naming every bad parameter. A `member` parameter is checked against the
 * manifest, or without one (static path mapping) only for being a well-formed slug.
 */
export function readQuery<Q extends QuerySpec>(spec: Q, params: URLSearchParams, manifest: Pick<Manifest, 'categories' | 'platforms'> | null): ValuesOf<Q> {
  const reader = new ParamReader(params);
  const values: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(spec)) values[name] = readOne(reader, name, param, manifest);
  reader.done();
  return values as ValuesOf<Q>;
}

function readOne(reader: ParamReader, name: string, param: Param, manifest: Pick<Manifest, 'categories' | 'platforms'> | null): unknown {
  switch (param.kind) {
    case 'int':
      if (param.min === 0) return reader.nonNegativeInt(name) ?? param.default;
      return reader.positiveInt(name, param.default ?? 1, param.max);
    case 'enum':
      return param.default === undefined ? reader.oneOf(name, param.values) : reader.oneOf(name, param.values, param.default);
    case 'boolean':
      return reader.boolean(name);
    case 'member': {
      if (manifest !== null) return reader.member(name, manifest[param.of], param.what);
      const value = reader.raw(name);
      if (value !== undefined && !SLUG_RE.test(value)) reader.fail(name, `${name}: malformed ${param.what} ${quote(value)}`);
      return value;
    }
    case 'text': {
      const value = reader.raw(name);
      if (value !== undefined && param.pattern !== undefined && !param.pattern.test(value)) {
        reader.fail(name, `${name} must be ${param.mustBe ?? `like ${param.pattern}`}, got ${quote(value)}`);
        return param.default;
      }
      return value ?? param.default;
    }
  }
}
