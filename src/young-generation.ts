/**
 * Keeps V8's young generation at its smallest while the process starts (docs/performance.md, "Idle
 * memory (issue 16)"). Loading the modules and building the routes make many objects that live on,
 * and on that survival V8 doubles the new space up to its maximum (32 MB committed on a 64-bit
 * machine); an idle server never collects it again, so those 32 MB stay resident: a fifth of the
 * idle process on PostgreSQL. With a growth factor of 1 during start-up the new space stays at its
 * initial 2 MB; `startupDone()` restores V8's factor, so under sustained traffic it grows as before
 * and the throughput is V8's default.
 *
 * `--semi-space-growth-factor` is read by V8 at each growth decision, so setting it at run time
 * takes effect (`--max-semi-space-size` is read once when the heap is set up, and would have to be
 * on node's command line, which the production start `node dist/main.js` does not carry). Imported
 * first by src/main.ts, so that it runs before the other modules load.
 */
import { setFlagsFromString } from 'node:v8';

const V8_DEFAULT_GROWTH_FACTOR = 2;

// An operator's own young-generation flags (node's command line, NODE_OPTIONS) are left alone.
const operatorSet = /semi[-_]space/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);

if (!operatorSet) setFlagsFromString('--semi-space-growth-factor=1');

export function startupDone(): void {
  if (!operatorSet) setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
}
