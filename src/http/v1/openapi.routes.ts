/** GET /v1/openapi.json: the served source of truth, generated from the route schemas. */
import type { FastifyInstance } from 'fastify';
import type { SwaggerOptions } from '@fastify/swagger';

export const OPENAPI_DOCUMENT = (publicApiBaseUrl: string): SwaggerOptions => ({
  // The contract covers /v1 only: web pages, health checks and the upload target stay out of the document.
  transform: ({ schema, url }) => ({
    schema: url.startsWith('/v1/') ? schema : { ...schema, hide: true },
    url,
  }),
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Callscore call scoring API',
      version: '1.0.0',
      description:
        'Accepts finished sales calls with a transcript and queues them for scoring. Returns ids, statuses and links to the web application; never scores or transcript text.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Callscore' },
    },
    // Paths carry the /v1 prefix, so the server URL is the official base without it (keeping a gateway's path).
    servers: [{ url: publicApiBaseUrl.replace(/\/v1$/, ''), description: 'Official base' }],
    tags: [
      { name: 'calls', description: 'Create calls and read their status' },
      { name: 'recordings', description: 'Upload optional recordings for playback' },
      { name: 'meta', description: 'The machine-readable contract' },
    ],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: svc_sk_…' } },
    },
    security: [{ bearerAuth: [] }],
  },
});

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/openapi.json',
    {
      schema: {
        summary: 'The OpenAPI 3.1 document of this API',
        operationId: 'getOpenApi',
        tags: ['meta'],
        security: [],
        response: {
          200: { type: 'object', additionalProperties: true, description: 'OpenAPI 3.1 document' },
        },
      },
    },
    async () => app.swagger(),
  );
}
