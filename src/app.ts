import Fastify, { type FastifyReply } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { docsUiOptions } from './http/openapi-ui.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './store/db.ts';
import type { App, AppContext } from './http/context.ts';
import cookie from '@fastify/cookie';
import { registerAuth } from './http/plugins/auth.ts';
import { registerOperatorAuth } from './http/plugins/operator-auth.ts';
import { registerAudit } from './http/plugins/audit.ts';
import { AppError } from './domain/errors.ts';
import { errorEnvelope } from './http/envelope.ts';
import { registerBodyDiscard } from './http/plugins/body-discard.ts';
import { registerDraining } from './http/plugins/draining.ts';
import { registerErrorHandling } from './http/plugins/errors.ts';
import { registerIdempotencyKeyCheck } from './http/plugins/idempotency-key.ts';
import { registerJsonBody } from './http/plugins/json-body.ts';
import { registerNoBody } from './http/plugins/no-body.ts';
import { registerNulGuard } from './http/plugins/nul-guard.ts';
import { genRequestId } from './http/request-id.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { registerRouteTable } from './http/route-table.ts';
import { registerSecurityHeaders } from './http/plugins/security-headers.ts';
import { registerValidators } from './http/validation.ts';
import { SHARED_SCHEMAS } from './http/schemas/shared.ts';
import { opsRoutes } from './http/routes/ops.ts';
import { publicRoutes } from './http/routes/public/index.ts';
import { operatorRoutes } from './http/routes/operator/index.ts';
import { openapiDocument } from './http/openapi.ts';
import { getServerSecret } from './store/server-settings.ts';
import { SignedLinkDepositProvider, type DepositProvider } from './domain/deposits/provider.ts';
import { Metrics } from './metrics.ts';
import { AttemptGate } from './concurrency/attempt-gate.ts';
import { KeyedLimit } from './concurrency/keyed-limit.ts';
import { registerHttpMetrics } from './http/plugins/http-metrics.ts';
import { registerRateLimit } from './http/plugins/rate-limit.ts';
import { metricsRoutes } from './http/routes/metrics.ts';
import { dashboardRoutes } from './http/routes/dashboard.ts';
import { payRoutes } from './http/routes/pay.ts';
import { guestRoutes, isGuestPath, sendGuestNotFound } from './http/routes/guest/index.ts';
import { calendarFeedRoutes } from './http/routes/calendar-feeds/index.ts';
import { sendFeedNotFound } from './http/routes/calendar-feeds/ical.ts';
import { PAY_PAGE_HEADERS, renderNotFoundPage } from './http/deposit-page.ts';
import { MemoryRateLimitStore } from './rate-limit/memory-store.ts';
import { AccountLimiter } from './rate-limit/account-limiter.ts';
import { RedisRateLimitStore } from './rate-limit/redis-store.ts';
import type { RateLimitStore } from './rate-limit/store.ts';
import { throttledWarning } from './rate-limit/fail-open.ts';
import { countOutboxBacklog } from './store/outbox-backlog.ts';
import { Dispatcher } from './webhooks/dispatcher.ts';
import { ReadCaches, type CacheMode } from './cache/read-caches.ts';
import type { Mailer } from './domain/mail.ts';
import { createSmtpMailer } from './mail/smtp-mailer.ts';

export interface BuildOptions {
  config: Config;
  db: Db;
  logger?: Logger | false;
  clock?: () => Date;
  deposits?: DepositProvider;
  /** rate-limit counters; default Redis when config.redisUrl is set, else in-process on `clock`. A store passed here is the caller's to close. */
  rateLimitStore?: RateLimitStore;
  /** default: a fresh registry for this app */
  metrics?: Metrics;
  /** default: SMTP through config.smtpUrl when set (closed with the app), else none. A mailer passed here is the caller's to close. */
  mailer?: Mailer;
}

const BODY_LIMIT = 1024 * 1024;

/** A hop count as proxy-addr's function form (Fastify's types take no number): trust the nearest `n` hops. */
function trustProxyOption(v: Config['trustProxy']): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof v === 'number' ? (_addr, hop) => hop < v : v;
}

/** Builds the whole HTTP application; never listens (main.ts and tests decide that). */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: opts.logger === false || opts.logger === undefined ? undefined : opts.logger,
    logger: opts.logger === false || opts.logger === undefined ? false : undefined,
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(opts.config.trustProxy),
    genReqId: genRequestId,
    // What Node's HTTP parser refuses never reaches Fastify's router or error handler.
    clientErrorHandler: clientErrorHandler(() => ({ log: app.log, metrics: app.ctx?.metrics })),
    // registerDraining answers requests that arrive while closing, in the envelope.
    return503OnClosing: false,
    forceCloseConnections: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A path that is not valid percent-encoding never reaches a route; answer it in the envelope.
    frameworkErrors: (_err, request, reply) =>
      // A guest's payment link this bad (a segment too long or badly encoded) gets the page's 404.
      request.url.startsWith('/pay/')
        ? (reply as FastifyReply).status(404).header('x-request-id', request.id).headers(PAY_PAGE_HEADERS).send(renderNotFoundPage())
        : isGuestPath(request.url)
          ? sendGuestNotFound((reply as FastifyReply).header('x-request-id', request.id), request)
          : // A calendar app sees only the status: an overlong feed address is the feed's plain 404.
            request.url.startsWith('/ical/')
            ? sendFeedNotFound((reply as FastifyReply).header('x-request-id', request.id))
            : (reply as FastifyReply)
                .status(400)
                .header('x-request-id', request.id)
                // These answers skip every hook, the onSend of plugins/security-headers.ts included.
                .header('cache-control', 'no-store')
                .send(
                  errorEnvelope(
                    request,
                    new AppError('request.validation_failed', 'The path is not valid percent-encoding.', {
                      issues: [{ path: 'path', message: 'is not valid percent-encoding' }],
                    }),
                  ),
                ),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  try {
    await setUp(app, opts);
  } catch (err) {
    // What was opened so far (a Redis connection, say) closes with the app instead of holding the
    // process open.
    await app.close().catch(() => {});
    throw err;
  }
  return app;
}

async function setUp(app: App, opts: BuildOptions): Promise<void> {
  const serverSecret = await getServerSecret(opts.db);
  const metrics = opts.metrics ?? new Metrics();
  // An operator's redelivery goes out through the worker's sender (the connect-time address check).
  const webhookSender = new Dispatcher({
    timeoutMs: opts.config.webhookTimeoutMs,
    allowPrivateTargets: opts.config.webhookAllowPrivateTargets,
  });
  app.addHook('onClose', async () => webhookSender.close());
  const ctx: Omit<AppContext, 'rateLimits' | 'accountLimits' | 'caches'> & { rateLimits?: RateLimitStore } = {
    db: opts.db,
    config: opts.config,
    clock: opts.clock ?? (() => new Date()),
    serverSecret,
    deposits: opts.deposits ?? new SignedLinkDepositProvider(opts.config.publicBaseUrl, serverSecret),
    metrics,
    bookingGate: new AttemptGate((outcome) => metrics.bookingAttempts.inc({ outcome })),
    createLimit: new KeyedLimit(opts.config.bookingConcurrencyPerBusiness),
    webhookSender,
    mailer: opts.mailer ?? openMailer(app, opts.config),
  };
  ctx.metrics.setBacklogSource(() => countOutboxBacklog(opts.db));
  const rateLimitStore = opts.rateLimitStore ?? (await openRateLimitStore(app, ctx));
  const caches = openReadCaches(app, opts.db, rateLimitStore);
  const fullCtx: AppContext = { ...ctx, rateLimits: rateLimitStore, accountLimits: openAccountLimiter(app, ctx, rateLimitStore), caches };
  app.decorate('ctx', fullCtx);
  registerRouteTable(app);

  registerValidators(app);
  registerJsonBody(app);
  registerErrorHandling(app);
  registerDraining(app);
  registerSecurityHeaders(app);
  for (const s of SHARED_SCHEMAS) app.addSchema(s);

  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // Route existence is the first check: an unknown route is 404 before its body is even read.
    if (request.is404) {
      // A guest's payment link that matches no route (mangled past recognition) gets the page's 404.
      if (request.url.startsWith('/pay/')) return reply.status(404).headers(PAY_PAGE_HEADERS).send(renderNotFoundPage());
      if (request.url.startsWith('/ical/')) return sendFeedNotFound(reply);
      return reply.status(404).send(errorEnvelope(request, new AppError('request.not_found')));
    }
  });
  await app.register(cookie);
  registerAuth(app);
  registerOperatorAuth(app);
  registerAudit(app);
  registerRateLimit(app, { store: rateLimitStore, metrics: ctx.metrics, timeoutMs: opts.config.rateLimitTimeoutMs });
  registerIdempotencyKeyCheck(app);
  registerHttpMetrics(app, ctx.metrics);
  registerBodyDiscard(app);
  registerNulGuard(app);
  registerNoBody(app);

  await app.register(swagger, openapiDocument(opts.config));
  await app.register(swaggerUi, docsUiOptions);

  await app.register(opsRoutes);
  await app.register(publicRoutes, { prefix: '/v1' });
  await app.register(operatorRoutes, { prefix: '/admin/v1' });
  await app.register(metricsRoutes);
  await app.register(dashboardRoutes);
  await app.register(payRoutes);
  await app.register(guestRoutes);
  await app.register(calendarFeedRoutes);

  app.get('/v1/openapi.json', { schema: { hide: true }, config: { access: { surface: 'open' } } }, async () => app.swagger());

  await app.ready();
}

/**
 * Keys and catalogue answers from memory (docs/architecture.md "Caches and their invalidation"):
 * versions through Redis when the rate-limit store is shared, in process on PGlite (one process),
 * none on PostgreSQL without Redis (other instances could write unseen).
 */
function openReadCaches(app: App, db: Db, store: RateLimitStore): ReadCaches {
  const warn = throttledWarning(
    app.log,
    'business version not published to Redis; retrying (other instances may serve the old version meanwhile)',
  );
  const mode: CacheMode = store.hitWithVersion && store.publishVersion ? 'redis' : db.kind === 'pglite' ? 'local' : 'off';
  const caches = new ReadCaches(mode, store.publishVersion ? (id, v) => store.publishVersion!(id, v) : undefined, (err) => warn(err));
  caches.attach(db);
  store.onConnected?.(() => caches.clear());
  app.addHook('onClose', async () => caches.close());
  return caches;
}

/** SMTP when SMTP_URL is set, closed with the app; else no mail. */
function openMailer(app: App, config: Config): Mailer | undefined {
  if (config.smtpUrl === undefined) return undefined;
  const mailer = createSmtpMailer(config.smtpUrl, config.mailFrom);
  app.addHook('onClose', async () => mailer.close());
  return mailer;
}

/** The account limits over the shared store, counted in process while it fails; closed with the app. */
function openAccountLimiter(app: App, ctx: Pick<AppContext, 'config' | 'clock'>, shared: RateLimitStore): AccountLimiter {
  // The error only: the keys (emails, client addresses) never reach the log.
  const warn = throttledWarning(app.log, 'rate-limit store failed during an account check; counting in this process instead');
  const limiter = new AccountLimiter(shared instanceof MemoryRateLimitStore ? undefined : shared, {
    timeoutMs: ctx.config.rateLimitTimeoutMs,
    now: () => ctx.clock().getTime(),
    onFallback: (err) => warn(err),
  });
  app.addHook('onClose', async () => limiter.close());
  return limiter;
}

/** Redis when configured (shared by every instance), else in-process; closed with the app. */
async function openRateLimitStore(app: App, ctx: Pick<AppContext, 'config' | 'clock'>): Promise<RateLimitStore> {
  const { redisUrl, rateLimitTimeoutMs } = ctx.config;
  let store: RateLimitStore;
  if (redisUrl) {
    const warn = throttledWarning(app.log, 'Redis connection error (rate limits fail open while it lasts)');
    store = new RedisRateLimitStore(redisUrl, { commandTimeoutMs: rateLimitTimeoutMs }, (err) => warn(err));
    // Give Redis a moment at start so the first requests are counted; after that, fail open.
    if (!(await store.ready(2000))) app.log.warn('Redis not reachable at start; rate limits fail open until it is');
  } else {
    store = new MemoryRateLimitStore(() => ctx.clock().getTime());
  }
  app.addHook('onClose', async () => store.close());
  return store;
}
