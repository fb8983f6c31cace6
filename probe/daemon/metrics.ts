// Prometheus metrics of one daemon (its own registry, so several daemons can live in one process).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { VerificationResult } from '../contract';

export interface ProbeMetrics {
  registry: Registry;
  observe(r: VerificationResult): void;
  requests: Counter<'status'>;
  inFlight: Gauge;
}

export function createProbeMetrics(): ProbeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mailvet_probe_' });
  const results = new Counter({
    name: 'mailvet_probe_results_total',
    help: 'Verification results by verdict and reason',
    labelNames: ['verdict', 'reason'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'mailvet_probe_verify_duration_seconds',
    help: 'Time from request to result, per address',
    labelNames: ['verdict'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 60, 300, 900],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'mailvet_probe_requests_total',
    help: 'POST /v1/verify requests by HTTP status',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'mailvet_probe_requests_in_flight', help: 'Verify requests being streamed', registers: [registry] });
  return {
    registry,
    requests,
    inFlight,
    observe(r) {
      results.inc({ verdict: r.verdict, reason: r.reason });
      latency.observe({ verdict: r.verdict }, r.ms / 1000);
    },
  };
}
