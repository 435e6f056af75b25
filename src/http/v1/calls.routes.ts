/** POST /v1/calls and GET /v1/calls/{id}: schema in the route options, the story in ingestCall. */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { checkBodyStrings, callRuleViolations, throwSchemaErrors } from '../../ingest/check-request.js';
import { ingestCall, type IngestDeps } from '../../ingest/ingest-call.js';
import { findCallForAccount } from '../../store/calls.repo.js';
import { bodyBudgetHook, createBodyBudget } from '../hooks/body-budget.js';
import { BODY_LIMIT_BYTES } from '../server.js';
import type { Call } from '../../store/schema.js';
import {
  CallIdParamsSchema,
  CallIngestResultSchema,
  CallSchema,
  CreateCallRequestSchema,
  authenticatedResponses,
  LOCATION_HEADER,
  successResponse,
  type CallIngestResult,
  type CallView,
  type CreateCallRequest,
} from './schemas.js';

export interface CallsRouteOptions {
  ingest: IngestDeps;
  publicApiBaseUrl: string;
  publicAppBaseUrl: string;
}

/** Two 1 MiB bodies, or about fifty 40 KB ones, in flight at once per process (measured: §20). */
const INGEST_BODY_BUDGET_BODIES = 2;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function attribution(call: Call) {
  return call.rep_source && call.speaker_source
    ? { rep_source: call.rep_source, speaker_source: call.speaker_source }
    : null;
}

export async function callsRoutes(app: FastifyInstance, options: CallsRouteOptions): Promise<void> {
  const appUrl = (id: string) => `${options.publicAppBaseUrl}/calls/${id}`;

  app.post(
    '/calls',
    {
      config: { scope: 'calls:write' },
      preParsing: bodyBudgetHook(
        createBodyBudget(INGEST_BODY_BUDGET_BODIES * BODY_LIMIT_BYTES),
        BODY_LIMIT_BYTES,
      ),
      attachValidation: true,
      schema: {
        summary: 'Create a call from a transcript and queue it for scoring',
        description: 'Idempotent on (provider, external_id). Returns ids, status and links; never scores.',
        operationId: 'createCall',
        tags: ['calls'],
        body: CreateCallRequestSchema,
        response: authenticatedResponses(
          {
            200: successResponse(
              CallIngestResultSchema,
              'The call already existed; nothing new was created.',
            ),
            202: successResponse(
              CallIngestResultSchema,
              'The call was created and queued for scoring.',
              LOCATION_HEADER,
            ),
          },
          'invalid_json',
          'payload_too_large',
          'unsupported_media_type',
          'external_id_conflict',
          'recording_already_used',
          'validation_failed',
          'unknown_field',
          'transcript_unlabeled',
          'transcript_too_long',
          'rep_not_found',
          'rep_inactive',
          'rep_ambiguous',
          'rep_no_team',
          'rep_pending_activation',
          'rep_speaker_not_found',
          'rep_speaker_ambiguous',
          'rep_speaker_undetermined',
          'recording_not_found',
          'scorecard_not_found',
          'scorecard_not_configured',
          'scorecard_rule_unavailable',
          'team_not_configured',
          'inference_unavailable',
        ),
      },
    },
    async (request, reply) => {
      // NUL characters and forbidden keys rank with the rule violations: after unknown fields (DESIGN 1b step 4).
      const ruleViolations = [
        ...checkBodyStrings(request.body),
        ...callRuleViolations((request.body ?? {}) as object, Date.now()),
      ];
      if (request.validationError) {
        throwSchemaErrors(
          (request.validationError as unknown as { validation: never[] }).validation,
          ruleViolations,
        );
      }
      if (ruleViolations.length) throwSchemaErrors([], ruleViolations);
      const { call, created } = await ingestCall(
        options.ingest,
        request.caller!,
        request.body as CreateCallRequest,
      );
      const result: CallIngestResult = {
        id: call.id,
        object: 'call',
        external_id: call.external_id,
        provider: call.provider,
        status: call.status,
        created,
        attribution: attribution(call),
        recording_attached: call.recording_id !== null,
        app_url: appUrl(call.id),
      };
      if (created) reply.header('Location', `${options.publicApiBaseUrl}/calls/${call.id}`);
      return reply.code(created ? 202 : 200).send(result);
    },
  );

  app.get(
    '/calls/:id',
    {
      config: { scope: 'calls:read' },
      // A malformed id is a 404 not_found (DESIGN section 4), decided below, never a schema error.
      attachValidation: true,
      schema: {
        summary: 'Read the status and in-app link of a call',
        operationId: 'getCall',
        tags: ['calls'],
        params: CallIdParamsSchema,
        response: authenticatedResponses(
          { 200: successResponse(CallSchema, 'The call. Never contains scores or transcript text.') },
          'not_found',
          'route_not_found',
        ),
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const call = UUID.test(id)
        ? await findCallForAccount(options.ingest.store.db, request.caller!.accountId, id.toLowerCase())
        : undefined;
      if (!call) throw new AppError('not_found', 'No call with this id exists in your account.');
      const view: CallView = {
        id: call.id,
        object: 'call',
        external_id: call.external_id,
        provider: call.provider,
        status: call.status,
        skip_reason: call.status === 'skipped' ? call.skip_reason : null,
        rep: { email: call.rep_email },
        call_type: call.call_type,
        has_recording: call.recording_id !== null,
        attribution: attribution(call),
        occurred_at: call.occurred_at,
        created_at: call.created_at,
        app_url: appUrl(call.id),
      };
      return view;
    },
  );
}
