/**
 * Zod schemas of the endpoint table's parameters (src/param-spec.ts), for the OpenAPI document
 * (builder/openapi.ts) and the MCP tools' inputs (src/node/mcp.ts). The runtime never imports this
 * file: it reads parameters with `readQuery`, so no zod reaches a Service Worker or a Worker.
 */
import { z } from 'zod';
import type { Param, ParamsOf, QuerySpec } from './param-spec.ts';
import { SLUG_RE } from './paths.ts';

/** Which view: the client's and the tools' (`input`), or the document's, with its `openapi` extras. */
export type ParamView = 'input' | 'openapi';

/** The zod schema of one parameter. */
export function zodParam(param: Param, view: ParamView = 'input'): z.ZodType {
  const extra = view === 'openapi' ? param.openapi : undefined;
  let schema: z.ZodType;
  switch (param.kind) {
    case 'int':
      schema = z.int().min(param.min).max(param.max);
      break;
    case 'enum':
      schema = z.enum(param.values);
      break;
    case 'member':
      schema = z.string().regex(SLUG_RE);
      break;
    case 'boolean':
      schema = z.boolean();
      break;
    case 'text': {
      let text = z.string();
      // A rest path's pattern is its segments', not the whole value's.
      if (param.pattern !== undefined && !('rest' in param && param.rest === true)) text = text.regex(param.pattern);
      if (param.maxLength !== undefined) text = text.max(param.maxLength);
      if (extra?.minLength !== undefined) text = text.min(extra.minLength);
      schema = text;
      break;
    }
  }
  schema = schema.describe(extra?.description ?? param.description);
  return (extra?.required ?? param.required) === true ? schema : schema.optional();
}

/** The zod object of a query (or of path parameters). */
export function zodQuery<Q extends QuerySpec>(spec: Q, view: ParamView = 'input'): z.ZodObject<{ -readonly [K in keyof Q]: z.ZodType<ParamsOf<Q>[K & keyof ParamsOf<Q>]> }> {
  return z.object(Object.fromEntries(Object.entries(spec).map(([name, param]) => [name, zodParam(param, view)]))) as never;
}
