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
        output: {
          // The date picker is large and only forms and date filters draw it: its own chunk, or the automatic
          // splitting folds it into a chunk every list loads. Its dependencies and its texts (antd's locale, which the
          // shell loads) stay where they are shared.
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [{ name: 'date-picker', test: /node_modules[\\/](@rc-component[\\/]picker|antd[\\/]es[\\/](date-picker|time-picker|calendar))[\\/](?!.*locale)/ }],
          },
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
