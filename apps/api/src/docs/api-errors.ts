import { type ErrorCode, httpStatusOf } from '@brandwire/domain';
import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, type ApiResponseSchemaHost, ApiSchema, type SchemaObject, getSchemaPath } from '@nestjs/swagger';
import type { ErrorEnvelope } from '../common/errors/envelope';

/** The body of every error answer (common/errors: the envelope filter, the body parser, the client-error handler). */
@ApiSchema({ name: 'ErrorEnvelope', description: 'Every error answer of the service: `{ ok: false, code, message }`, with the HTTP status of its code.' })
export class ErrorEnvelopeDto implements ErrorEnvelope {
  @ApiProperty({ type: Boolean, enum: [false], description: 'always false' })
  ok!: false;

  @ApiProperty({ description: "the service's error code; each response lists the codes the operation answers with that status", example: 'FORBIDDEN' })
  code!: string;

  @ApiProperty({ description: 'what went wrong, for people; it names the field or value at fault where there is one', example: 'this key has no access to brandKey "acme-kakoa": its channels are acme-kakao, acme-naver' })
  message!: string;
}

/** Why an operation answers an error code, by code; the HTTP status is the code's own (httpStatusOf). */
export type ErrorReasons = Partial<Record<ErrorCode, string>>;

/** Fields an error body carries besides the envelope's, all of them always present. */
export type ExtraErrorFields = Record<string, SchemaObject>;

/** A body that is JSON: read once the request's key is let in, then validated against the operation's DTO. */
export const JSON_BODY_ERRORS = {
  BAD_REQUEST: 'the body is not a JSON object, or a field is missing, unknown or invalid (the message names it)',
  PAYLOAD_TOO_LARGE: 'the body is larger than the JSON body limit (JSON_BODY_LIMIT, 1 MB by default)',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not JSON (Content-Type: application/json)',
} satisfies ErrorReasons;

/** A multipart/form-data body of fields and files (uploads, attachment send). */
export const MULTIPART_ERRORS = {
  BAD_REQUEST:
    'a field is missing, unknown or invalid, or a text field is not valid UTF-8 (the message names it), a file name holds control characters, a file part is unexpected or there are too many files, or the multipart body is malformed',
  PAYLOAD_TOO_LARGE: 'a file is larger than 300 MB, the most the messenger takes',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not multipart/form-data',
} satisfies ErrorReasons;

/** Query parameters validated against the operation's DTO. */
export const QUERY_ERRORS = {
  BAD_REQUEST: 'a query parameter is missing or invalid (the message names it)',
} satisfies ErrorReasons;

/**
 * A brand key in the body (`brandKey`) or the query (`brand`). One the key was not given and one that is no
 * channel at all get the same answer, so that a key cannot tell which channel keys other brands have
 * (BrandAccessService); RequiresScope documents it too, on every route that names a brand.
 */
export const BRAND_ERRORS = {
  FORBIDDEN:
    'the key has no access to the brand key the request names, or no channel has that key (the two are answered alike); the message names the field and lists the channels the key reaches',
} satisfies ErrorReasons;

/** The operation calls the messenger; its refusals are HTTP 200 with `ok: false` and its code, not errors. */
export const MESSENGER_ERRORS = {
  UPSTREAM_UNAVAILABLE: 'the messenger could not be reached or gave no usable answer; nothing was done',
} satisfies ErrorReasons;

/** A billed send: the plan's consultation count. */
export const BILLED_SEND_ERRORS = {
  PLAN_EXHAUSTED: "the plan's consultation count is used up: sending is blocked until the plan is raised",
} satisfies ErrorReasons;

/** The operation takes an `Idempotency-Key` header (common/http/idempotency). */
export const IDEMPOTENCY_ERRORS = {
  BAD_REQUEST: 'the Idempotency-Key is not 1 to 255 visible ASCII characters',
  IDEMPOTENCY_CONFLICT: 'the Idempotency-Key was used with a different request, or a request with it is still being processed',
} satisfies ErrorReasons;

/** A personal-info consent bubble (the consent request, or a rich send of chat_bubble_type PERSONAL). */
export const CONSENT_ERRORS = {
  UNSUPPORTED_CHANNEL: 'the channel is not Kakao-type (only those take personal-info consent requests)',
  NO_WEBHOOK:
    'the channel has no webhook (with SQLite: nor an open signal stream) to relay the consent result to; the result is relayed once and kept nowhere, so it would be lost',
} satisfies ErrorReasons;

function mergeReasons(groups: readonly ErrorReasons[]): Map<ErrorCode, string[]> {
  const merged = new Map<ErrorCode, string[]>();
  for (const group of groups) {
    for (const [code, reason] of Object.entries(group) as [ErrorCode, string | undefined][]) {
      if (reason === undefined) continue;
      const reasons = merged.get(code) ?? [];
      if (!reasons.includes(reason)) reasons.push(reason);
      merged.set(code, reasons);
    }
  }
  return merged;
}

function envelopeSchema(extra: ExtraErrorFields | undefined): ApiResponseSchemaHost['schema'] {
  const envelope = { $ref: getSchemaPath(ErrorEnvelopeDto) };
  if (!extra) return envelope;
  return { allOf: [envelope, { type: 'object', required: Object.keys(extra), properties: extra }] };
}

/** Every 429 says when to try again. */
const RETRY_AFTER = { 'Retry-After': { description: 'seconds until a request may be made again', schema: { type: 'integer', minimum: 1 } } };

function errorResponses(groups: readonly ErrorReasons[], extra?: ExtraErrorFields): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, string[]>();
  for (const [code, reasons] of mergeReasons(groups)) {
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), `- \`${code}\`: ${reasons.join('; ')}`]);
  }
  const schema = envelopeSchema(extra);
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...[...byStatus].map(([status, lines]) =>
      // the content is given whole: errors are JSON also on an operation that produces something else (the signal stream)
      ApiResponse({ status, description: lines.join('\n'), content: { 'application/json': { schema } }, ...(status === 429 ? { headers: RETRY_AFTER } : {}) }),
    ),
  );
}

/**
 * Documents the error answers of an operation: one response per HTTP status with the ErrorEnvelope schema and a
 * description listing each code the operation answers with it and why. Reasons given for the same code by several
 * groups are joined. 401 and 403 come from RequiresScope; a reason given here for one of their codes is added to its list.
 *
 * Swagger keeps an operation's own response of a status over its controller's: on a controller, use it only for
 * statuses its operations do not document themselves.
 */
export function ApiErrors(...groups: ErrorReasons[]): MethodDecorator & ClassDecorator {
  return errorResponses(groups);
}

/** As ApiErrors, for codes whose bodies carry fields besides the envelope's (a refused delete's `serial`). */
export function ApiErrorsCarrying(extra: ExtraErrorFields, ...groups: ErrorReasons[]): MethodDecorator & ClassDecorator {
  return errorResponses(groups, extra);
}
