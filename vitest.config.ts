import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

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
    include: ['test/**/*.test.ts', 'properties/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    // At least two test files at a time, also on a 2-core machine (vitest's default there is one):
    // the flow properties keep a core busy each, and the suite then fits CI's time on such a machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Objects the engine sealed are deep-frozen: a change in place anywhere throws (src/kernel/sealed.ts).
    env: { SERVICE_SIM_FREEZE_SEALED: '1' },
  },
})
