/**
 * A job worker as a process of its own, for test/jobs.test.ts to SIGKILL mid-run: runs `test.hang`
 * jobs of DATABASE_URL with a handler that never finishes, under a lease of LEASE_MS.
 */
import { JobRegistry } from '../../src/jobs/registry.ts';
import { TableQueue } from '../../src/jobs/table-queue.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { PostgresDb } from '../../src/store/postgres-db.ts';
import { hangHandler } from './job-handlers.ts';

const db = PostgresDb.open(process.env.DATABASE_URL!, 2);
const registry = new JobRegistry().register(hangHandler(db, 'child', true, Number(process.env.LEASE_MS)));
const worker = new JobWorker({ db, queues: [new TableQueue(db, registry.handlers)], pollIntervalMs: 100 });
await worker.start();
process.stdout.write('ready\n');
