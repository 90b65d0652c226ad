/**
 * The dashboard's zones (docs/dashboard.md, "Structure"), as bulletproof-react draws them with its
 * lint zones: `app/` composes features; a feature imports only itself, the shared feature
 * `catalogue/`, `components/` and `lib/`; `components/` and `lib/` import no feature; nothing imports
 * `app/`. Checked by test/dashboard-architecture.test.ts (in `npm test`) and `npm run lint:layers`;
 * a violation fails with the rule's name. Paths are relative to dashboard/.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'feature-imports-no-other-feature',
      comment:
        'A feature is one section of the dashboard; what two features share goes to components/, lib/ or the shared feature catalogue/.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: ['^src/features/$1/', '^src/features/catalogue/'] },
    },
    {
      name: 'shared-imports-no-feature',
      comment: 'components/ and lib/ serve every feature, so they know none.',
      severity: 'error',
      from: { path: '^src/(components|lib)/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'nothing-imports-app',
      comment: 'app/ (router, providers, shell) sits on top: it imports features, never the other way.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app/|main[.]tsx$)' },
      to: { path: '^src/app/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle means two modules are one idea, or one of them is in the wrong place.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
