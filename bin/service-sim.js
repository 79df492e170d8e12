#!/usr/bin/env node
// The `service-sim` command. Prefers the built CLI (dist/) and falls back to the TypeScript
// sources through tsx, so it works from a fresh clone. tsx is registered either way so that
// `--client ./my-client.ts` loads TypeScript directly.
import { existsSync } from 'node:fs'
import { register } from 'tsx/esm/api'

register()
const dist = new URL('../dist/cli/main.js', import.meta.url)
const src = new URL('../src/cli/main.ts', import.meta.url)
const { main } = await import(existsSync(dist) ? dist.href : src.href)
process.exitCode = await main(process.argv.slice(2))
