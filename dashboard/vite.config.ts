import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the API server under /dashboard/ (src/http/routes/dashboard.ts); `npm run dev` proxies
// the API to a server on :3000.
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline <script>/<style> and no data: module: the CSP allows only files of this origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    // dist/.vite/manifest.json: the chunk graph test/dashboard-bundle.test.ts measures the first page by
    // (a dot folder, never served: src/http/routes/dashboard.ts denies dotfiles).
    manifest: true,
  },
  server: {
    proxy: { '/admin': 'http://localhost:3000', '/v1': 'http://localhost:3000' },
  },
});
