/**
 * GET /metrics in the Prometheus text format: request counts and latency by route and status, process memory,
 * and scoring jobs by status. Labelled with the service environment (DESIGN: staging labels its metrics).
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/db.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export function registerMetrics(app: FastifyInstance, options: { store: Store; env: string }): void {
  const series = new Map<string, Series>();
  const env = escapeLabel(options.env);

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: ids would make the label set unbounded.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `method="${request.method}",route="${escapeLabel(route)}",status="${reply.statusCode}"`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) }));
    const seconds = reply.elapsedTime / 1000;
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) s.buckets[i]!++;
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const lines = [
      '# HELP callscore_http_requests_total HTTP requests by method, route and status.',
      '# TYPE callscore_http_requests_total counter',
    ];
    for (const [key, s] of series)
      lines.push(`callscore_http_requests_total{env="${env}",${key}} ${s.count}`);
    lines.push(
      '# HELP callscore_http_request_duration_seconds Time to answer, by route.',
      '# TYPE callscore_http_request_duration_seconds histogram',
    );
    for (const [key, s] of series) {
      BUCKETS.forEach((le, i) =>
        lines.push(
          `callscore_http_request_duration_seconds_bucket{env="${env}",${key},le="${le}"} ${s.buckets[i]}`,
        ),
      );
      lines.push(`callscore_http_request_duration_seconds_bucket{env="${env}",${key},le="+Inf"} ${s.count}`);
      lines.push(`callscore_http_request_duration_seconds_sum{env="${env}",${key}} ${s.sum}`);
      lines.push(`callscore_http_request_duration_seconds_count{env="${env}",${key}} ${s.count}`);
    }
    const jobs = await options.store.db
      .selectFrom('scoring_jobs')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    lines.push(
      '# HELP callscore_scoring_jobs Scoring jobs by status.',
      '# TYPE callscore_scoring_jobs gauge',
    );
    for (const row of jobs)
      lines.push(`callscore_scoring_jobs{env="${env}",status="${escapeLabel(row.status)}"} ${Number(row.n)}`);
    lines.push(
      '# HELP process_resident_memory_bytes Resident memory.',
      '# TYPE process_resident_memory_bytes gauge',
    );
    lines.push(`process_resident_memory_bytes{env="${env}"} ${process.memoryUsage.rss()}`);
    return reply.type('text/plain; version=0.0.4').send(`${lines.join('\n')}\n`);
  });
}
