/**
 * The layer rules of docs/architecture.md, checked by test/architecture.test.ts (in `npm test`).
 * Violations that predate the rules are listed in .dependency-cruiser-known-violations.json and
 * shrink as issue 13's moves land; a new one fails the test with its rule's name.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-domain',
      comment: 'src/domain holds the pure rules: no store, no HTTP, no I/O modules of the app.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'store-imports-domain-types-only',
      comment: 'src/store is SQL only: it may use domain types (and throw catalog errors), never domain rules, HTTP or use cases.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: ['^src/store/', '^src/domain/errors[.]ts$', '^src/config[.]ts$'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'store-imports-nothing-above',
      comment: 'src/store never reaches up into HTTP, use cases, the worker or the rate limiter, not even for types.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(http|use-cases|webhooks|jobs|rate-limit|concurrency)/' },
    },
    {
      name: 'jobs-only-from-entry-points',
      comment:
        'The job worker (src/jobs) is started by the entry points; a use case plans a job with planJob of src/store/jobs.ts in its own transaction, never by calling the worker.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/jobs/', '^src/webhooks/worker[.]ts$', '^src/(main|worker)[.]ts$'] },
      to: { path: '^src/jobs/' },
    },
    {
      name: 'http-never-imported-from-below',
      comment: 'Only the entry points (app.ts, main.ts, worker.ts) and src/http itself may import src/http.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/http/', '^src/(app|main|worker)[.]ts$'] },
      to: { path: '^src/http/' },
    },
    {
      name: 'routes-call-use-cases',
      comment: 'A route parses, authorises and renders; what it does is one use-case function, never SQL of its own.',
      severity: 'error',
      from: { path: '^src/http/routes/' },
      to: { path: '^src/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'ui-imports-only-domain',
      comment: 'src/ui renders guest pages and (later) mails from data: it may use domain types and pure rules, nothing with I/O.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/', pathNot: ['^src/ui/', '^src/domain/'] },
    },
    {
      name: 'no-circular',
      comment: 'A cycle means two modules are one idea, or one of them is in the wrong layer.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
