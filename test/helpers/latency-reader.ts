/**
 * A client of its own for "another business" in load tests: GETs each of the URLs in turn, back to
 * back, until a line arrives on standard input; then prints one JSON line of its latencies and
 * statuses and exits. Being its own process, its timings do not include the load generator's work
 * on the test's event loop, as a real second client's would not.
 *
 * Usage: node --import tsx test/helpers/latency-reader.ts TOKEN URL [URL…]
 */
const [token, ...urls] = process.argv.slice(2);
if (!token || urls.length === 0) throw new Error('usage: latency-reader.ts TOKEN URL [URL…]');

async function read(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  await r.arrayBuffer();
  return { status: r.status, ms: performance.now() - started };
}

// Connections open and the fetch path warm before the measured reads, as in a client that has run a while.
for (let i = 0; i < 10; i++) await read(urls[i % urls.length]!);

let reading = true;
process.stdin.once('data', () => (reading = false));
process.stdout.write('ready\n');

const samples: { status: number; ms: number }[] = [];
for (let i = 0; reading; i++) {
  samples.push(await read(urls[i % urls.length]!));
  // lets the stop line through on an idle loop
  await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(`${JSON.stringify(samples)}\n`);
process.stdin.destroy();
