// first: it must run before the other modules load
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { exitOnStartupFailure, startProcess, stopOnSignals } from './process-lifecycle.ts';
import { openDb } from './store/open.ts';
import { ensureAdminToken } from './use-cases/operator/admin-token.ts';
import { seedDemoIfEmpty } from './use-cases/operator/demo-seed.ts';
import { startJobWorker } from './jobs/start.ts';

const { config, log } = startProcess();

const failed = exitOnStartupFailure(config);

// DATA_DIR locked by another process, PostgreSQL unreachable or missing: one line, its exit code.
const db = await openDb(config).catch(failed);
const adminToken = await ensureAdminToken(db, config);
const runtime: Config = { ...config, adminToken };
const app = await buildApp({ config: runtime, db, logger: log });
let jobWorker: Awaited<ReturnType<typeof startJobWorker>> | undefined;

stopOnSignals(log, 'API', async () => {
  // In-flight requests and attempts finish side by side, so both fit in the bound together.
  await Promise.all([app.close(), jobWorker?.stop()]);
  await db.close();
});

// Listening before the worker starts: a port that cannot be had stops the process before it
// claims any delivery, and closes the database (and its DATA_DIR lock) on the way out.
await app.listen({ port: config.port, host: config.host }).catch(async (err: unknown) => {
  await app.close().catch(() => {});
  await db.close().catch(() => {});
  return failed(err);
});

// WEBHOOK_WORKER and NOTIFICATION_WORKER: the job worker (webhook deliveries, housekeeping, guest
// messages; docs/jobs.md) inside the API; several API instances may each run one. False for both:
// `npm run worker` does that work.
jobWorker =
  config.webhookWorker || config.notificationWorker
    ? await startJobWorker({
        db,
        config: runtime,
        webhooks: config.webhookWorker,
        notifications: config.notificationWorker,
        logger: log.child({ component: 'job-worker' }),
        // its attempts and backlog then show at this process's GET /metrics
        metrics: app.ctx.metrics,
      })
    : undefined;

const banner: string[] = [`Booking API listening on ${config.publicBaseUrl}  (docs: ${config.publicBaseUrl}/docs)`];
banner.push(`Database: ${db.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`);
if (adminToken && !config.adminToken) banner.push(`Operator token (stored in the database): ${adminToken}`);
if (!adminToken) banner.push('Operator API: off (set ADMIN_TOKEN to enable it)');
if (config.seedDemo) {
  const demo = await seedDemoIfEmpty(db, config);
  if (demo) {
    const base = config.publicBaseUrl;
    // One line to paste into another shell: every value the quick start of docs/integrator-guide.md needs.
    const exports = `export BASE=${base} KEY=${demo.apiKey} SALON=${demo.salonSlug} LOCATION=${demo.locationSlug} SERVICE=${demo.serviceId} STAFF=${demo.staffId}`;
    banner.push(
      `Demo salon "${demo.salonSlug}" seeded. Demo API key (shown once) and what the quick start (docs/integrator-guide.md) needs:`,
      `  ${exports}`,
      `Try: curl -s -H "Authorization: Bearer $KEY" "$BASE/v1/services?salonSlug=$SALON&locationSlug=$LOCATION"`,
      `Demo owner (shown once): email ${demo.owner.email}  password ${demo.owner.password}  dashboard ${base}/dashboard/`,
      // The guests' side of the same salon (docs/booking-page.md), to open beside the dashboard.
      `Demo salon's booking page: ${base}/book/${demo.salonSlug}`,
    );
  }
}
console.log(banner.join('\n'));
