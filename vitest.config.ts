import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

// Folders of unit tests that leave nothing behind in their process: each builds its own simulators,
// installs no global clock, patches no global and spawns nothing. Their files share one module
// graph per worker (no isolation): evaluating the whole service afresh for each of these ~180 small
// files cost about 190 s of a 2-core run, against 30 s shared. Every other folder (the harness,
// which swaps globals during a run; the CLI, serve, the browser and the docs tests) keeps a fresh
// module graph per file.
const SHARED = [
  'accounts',
  'billing',
  'billing-usage',
  'checkout',
  'connect',
  'core',
  'delivery',
  'engine',
  'hostile',
  'http',
  'interop',
  'kernel',
  'limits',
  'metering',
  'params',
  'payments',
  'simulator',
  'snapshot',
  'versions',
].map((folder) => `test/${folder}/**/*.test.ts`)

export default defineConfig({
  resolve: {
    // Tests and examples import the package by its public name, as users do.
    alias: [
      { find: /^service-sim$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^service-sim\/harness$/, replacement: fileURLToPath(new URL('./src/harness/index.ts', import.meta.url)) },
      { find: /^service-sim\/vitest$/, replacement: fileURLToPath(new URL('./src/vitest/index.ts', import.meta.url)) },
      { find: /^service-sim\/msw$/, replacement: fileURLToPath(new URL('./src/adapters/msw.ts', import.meta.url)) },
      {
        find: /^service-sim\/dashboard$/,
        replacement: fileURLToPath(new URL('./src/cli/dashboard/open-dashboard.ts', import.meta.url)),
      },
    ],
  },
  test: {
    testTimeout: 30_000,
    pool: 'forks',
    // At least two test files at a time, also on a 2-core machine (vitest's default there is one):
    // the flow properties keep a core busy each, and the suite then fits CI's time on such a machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Objects the engine sealed are deep-frozen: a change in place anywhere throws (src/kernel/sealed.ts).
    env: { SERVICE_SIM_FREEZE_SEALED: '1' },
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts', 'properties/**/*.test.ts', 'examples/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED],
        },
      },
    ],
  },
})
