/**
 * The one renderer of errors: {error:{code,message,request_id,fields}}. AppErrors carry their contract code;
 * Fastify's own body errors map to 413/415/400; an unreachable database is 503; anything else is a 500 whose
 * details stay in the log.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { isDatabaseUnavailable } from '../store/db.js';

function fromFastify(error: FastifyError): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is over 1 MiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError(
        'unsupported_media_type',
        'Send the body as JSON with Content-Type: application/json.',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_json', 'The request body is not valid JSON.');
    default:
      return null;
  }
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = fromFastify(error as FastifyError);
  if (fastifyError) return fastifyError;
  if (isDatabaseUnavailable(error)) {
    return new AppError('service_unavailable', 'The service is temporarily unavailable; retry shortly.', {
      retryAfter: 5,
    });
  }
  return new AppError(
    'internal_error',
    'Something went wrong on our side. It is safe to retry with backoff.',
  );
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
  return reply.code(error.status).send({
    error: {
      code: error.code,
      message: error.message,
      request_id: request.id,
      ...(error.fields ? { fields: error.fields } : {}),
    },
  });
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  if (appError.status >= 500) request.log.error({ err: error, code: appError.code }, 'request failed');
  return sendError(request, reply, appError);
}
