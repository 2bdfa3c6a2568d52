/**
 * The deploy's `ObjectStore` over the S3 API (AWS S3, Cloudflare R2, MinIO and other S3-compatible
 * storage) through the AWS SDK's S3 client, an optional peer dependency: only `skills-api deploy`
 * loads this file. Credentials, region and endpoint come from the usual AWS environment variables
 * (docs/deploy.md "Object storage"); the SDK retries throttling, 5xx answers and dropped
 * connections with backoff.
 */
import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { DeployError, type ObjectHeaders, type ObjectStore } from './deploy.ts';

/** A deploy target: `s3://<bucket>[/<prefix>]`. */
export interface S3Target {
  bucket: string;
  /** Key prefix without leading or trailing `/`; `''` for the bucket's root. */
  prefix: string;
}

/** Parse `s3://<bucket>[/<prefix>]`; throws a message naming what is wrong. */
export function parseS3Target(text: string): S3Target {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(text);
  if (match === null) throw new DeployError(`--to must be s3://<bucket>[/<prefix>], got ${JSON.stringify(text)}`);
  const bucket = match[1]!;
  // S3's bucket naming rules (R2 and MinIO follow them): 3-63 of a-z 0-9 . -, starting and ending alphanumeric.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new DeployError(`--to: ${JSON.stringify(bucket)} is not a valid bucket name (3-63 of a-z, 0-9, '.', '-')`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..') || /\/\//.test(prefix)) {
    throw new DeployError(`--to: the prefix ${JSON.stringify(prefix)} has an empty, '.' or '..' segment`);
  }
  return { bucket, prefix };
}

export interface S3StoreOptions extends S3Target {
  /** S3-compatible endpoint (R2, MinIO); default `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, else AWS. */
  endpoint?: string;
  /** Environment to read `AWS_*` from (the CLI's; `process.env` by default). */
  env?: NodeJS.ProcessEnv;
  /** Attempts per request (default `AWS_MAX_ATTEMPTS`, else 5). */
  maxAttempts?: number;
}

/** An `ObjectStore` over one bucket and prefix; `close()` ends its connections. */
export function s3Store(options: S3StoreOptions): ObjectStore & { close(): void; describe: string } {
  const env = options.env ?? process.env;
  const endpoint = options.endpoint ?? env['AWS_ENDPOINT_URL_S3'] ?? env['AWS_ENDPOINT_URL'];
  // R2 takes region `auto`; MinIO and most S3-compatible servers accept any region.
  const region = env['AWS_REGION'] ?? env['AWS_DEFAULT_REGION'] ?? (endpoint === undefined ? undefined : 'auto');
  if (region === undefined) throw new DeployError('set AWS_REGION (the bucket\'s region), or give --endpoint for S3-compatible storage');
  const id = env['AWS_ACCESS_KEY_ID'];
  const secret = env['AWS_SECRET_ACCESS_KEY'];
  const attempts = options.maxAttempts ?? (Number(env['AWS_MAX_ATTEMPTS']) || 5);
  const client = new S3Client({
    region,
    maxAttempts: attempts,
    ...(endpoint === undefined ? {} : { endpoint, forcePathStyle: true }),
    // Keys in the given environment win; otherwise the SDK's chain (profiles, SSO, instance roles).
    ...(id !== undefined && secret !== undefined ? { credentials: { accessKeyId: id, secretAccessKey: secret, ...(env['AWS_SESSION_TOKEN'] ? { sessionToken: env['AWS_SESSION_TOKEN'] } : {}) } } : {}),
    // throwOnRequestTimeout: without it the SDK only logs a warning and a stalled request waits forever.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000, throwOnRequestTimeout: true },
  });
  const { bucket, prefix } = options;
  const full = (key: string) => (prefix === '' ? key : `${prefix}/${key}`);
  const where = `s3://${bucket}${prefix === '' ? '' : `/${prefix}`}`;
  let requests = 0;
  const send = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    requests++;
    try {
      return await run();
    } catch (error) {
      throw explain(error, what, bucket, endpoint);
    }
  };
  return {
    describe: `${where}${endpoint === undefined ? '' : ` at ${endpoint}`}`,
    get requests() {
      return requests;
    },
    async get(key) {
      try {
        requests++;
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key) }));
        return answer.Body === undefined ? new Uint8Array() : await answer.Body.transformToByteArray();
      } catch (error) {
        // Only S3's own "no such key" means no object: a bare 404 (name NotFound/UnknownError) is an
        // endpoint that is not S3 (a website, a typo'd host behind a proxy), not an empty bucket.
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name === 'NoSuchKey')) return undefined;
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket') {
          throw new DeployError(`GET ${full(key)}: ${endpoint ?? 'AWS S3'} answered 404 without an S3 error: is --endpoint the S3 API endpoint of the storage?`, { cause: error });
        }
        throw explain(error, `GET ${full(key)}`, bucket, endpoint);
      }
    },
    async put(key, body, headers: ObjectHeaders) {
      await send(`PUT ${full(key)}`, () =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: full(key),
            Body: body,
            ContentLength: body.byteLength,
            ContentType: headers.contentType,
            CacheControl: headers.cacheControl,
            ...(headers.contentEncoding === undefined ? {} : { ContentEncoding: headers.contentEncoding }),
          }),
        ),
      );
    },
    async remove(keys) {
      // DeleteObjects takes at most 1,000 keys a request.
      for (let start = 0; start < keys.length; start += 1000) {
        const batch = keys.slice(start, start + 1000);
        const answer = await send(`DELETE ${batch.length} objects`, () =>
          client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((key) => ({ Key: full(key) })), Quiet: true } })),
        );
        const failed = answer.Errors ?? [];
        if (failed.length > 0) throw new DeployError(`could not delete ${failed.length} objects from ${where}, e.g. ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`.trim());
      }
    },
    close: () => client.destroy(),
  };
}

/** A message that says what failed and what to do, for the errors users meet. */
function explain(error: unknown, what: string, bucket: string, endpoint: string | undefined): Error {
  if (error instanceof DeployError) return error;
  const at = endpoint === undefined ? 'AWS S3' : endpoint;
  const name = (error as { name?: string }).name;
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'NoSuchBucket') return new DeployError(`${what}: the bucket ${bucket} does not exist at ${at} (create it first)`, { cause: error });
  if (name === 'CredentialsProviderError' || /Could not load credentials/.test(message)) {
    return new DeployError(`${what}: no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)`, { cause: error });
  }
  if (name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || name === 'AccessDenied') {
    return new DeployError(`${what}: ${at} refused the credentials (${name}): check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket's permissions`, { cause: error });
  }
  if (name === 'TimeoutError') return new DeployError(`${what}: ${at} did not answer in time (${message})`, { cause: error });
  const code = (error as { code?: string }).code;
  if (code !== undefined && /^E[A-Z]+$/.test(code)) return new DeployError(`${what}: cannot reach ${at} (${code}, after retries)`, { cause: error });
  return new DeployError(`${what}: ${name ?? 'error'}: ${message}`, { cause: error });
}
