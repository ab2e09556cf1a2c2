import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, expect } from 'vitest';
import { namingViolations } from './naming-violations';

/**
 * A tracer whose spans land in an in-memory exporter (the real SDK), emptied after each test of the
 * calling file; with `checkNaming`, every test's spans must also follow the attribute conventions.
 */
export function inMemoryTracing(options: { checkNaming?: boolean } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  afterEach(() => {
    if (options.checkNaming) expect(namingViolations(exporter.getFinishedSpans())).toEqual([]);
    exporter.reset();
  });
  return { exporter, provider, tracer };
}
