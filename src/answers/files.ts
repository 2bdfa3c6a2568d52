/** Helpers of the answers that serve a file of the static tree. */
import { ApiError } from '../errors.ts';

/** A resource file must hold `{ data }`; a missing or malformed one fails this request only. */
export function envelope(body: unknown, path: string): unknown {
  if (typeof body !== 'object' || body === null || !('data' in body)) {
    throw new ApiError('SERVER_ERROR', `The file ${path} is missing or malformed: rebuild the output`);
  }
  return body;
}
