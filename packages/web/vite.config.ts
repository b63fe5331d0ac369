import { defineConfig, loadEnv } from 'vite';
import { precompress } from './precompress.ts';

// Build-time profile (spec part 1 §1): deployments differ only in base path and socket scheme.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const backend = 'http://localhost:8080';
  return {
    base: env.VITE_BASE_PATH || '/portal/',
    plugins: [precompress()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      chunkSizeWarningLimit: 1500,
      rollupOptions: {
        // antd marks its modules "use client" for React Server Components; meaningless in this SPA bundle.
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
    server: {
      proxy: {
        '/api': { target: backend, ws: true },
        '/ocpp': { target: backend, ws: true },
      },
    },
  };
});
