// The in-run baseline: a bare Fastify route that only parses the same JSON body and answers 202.
import Fastify from 'fastify';

const app = Fastify({ bodyLimit: 1024 * 1024 });
app.get('/healthz', async () => ({ status: 'ok' }));
app.post('/v1/calls', async (request, reply) =>
  reply.code(202).send({ keys: Object.keys(request.body).length }),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
