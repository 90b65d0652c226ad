/**
 * The load generator of bench/read-path.ts, in a process of its own (so it does not share the
 * server's thread): one autocannon run of a fixed duration against one request, the same request
 * every time. Started by fork with a ReadLoadSpec; sends autocannon's result back and exits.
 */
import autocannon from 'autocannon';

export interface ReadLoadSpec {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  /** seconds */
  duration: number;
  headers: Record<string, string>;
  body?: string;
}

process.once('message', async (spec: ReadLoadSpec) => {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    timeout: 20,
    requests: [{ method: spec.method, path: spec.path, headers: spec.headers, ...(spec.body === undefined ? {} : { body: spec.body }) }],
  });
  process.send!(JSON.parse(JSON.stringify(result)), () => process.exit(0));
});
