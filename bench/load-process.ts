/**
 * The load generator of a bench, in a process of its own: autocannon in the server's process takes
 * a tenth of the one thread the server runs on, which no real client does. Started by
 * runLoadInChild with the requests' bodies made up front; sends autocannon's result back.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  path: string;
  connections: number;
  headers: Record<string, string>;
  /** one body per request; each request also gets a fresh Idempotency-Key */
  bodies: string[];
}

process.once('message', async (spec: LoadSpec) => {
  let next = 0;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    amount: spec.bodies.length,
    timeout: 20,
    // autocannon ends a run at its next sample tick, so its duration is only as fine as this
    sampleInt: 25,
    requests: [
      {
        method: 'POST',
        path: spec.path,
        setupRequest: (req: any) => ({
          ...req,
          headers: { ...spec.headers, 'idempotency-key': randomUUID() },
          body: spec.bodies[next++],
        }),
      },
    ],
  });
  process.send!(JSON.parse(JSON.stringify(result)), () => process.exit(0));
});
