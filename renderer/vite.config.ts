import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The cashier UI: built once into renderer/dist, served by the web shell or loaded by the Electron shell.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // Component CSS goes to the bundle's stylesheet file, never into <style> elements the page would inject at run time:
  // both shells' CSP has style-src 'self' without 'unsafe-inline' (issue 12, electron/main/content-policy.ts).
  plugins: [svelte({ emitCss: true, compilerOptions: { css: 'external' } })],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
});
