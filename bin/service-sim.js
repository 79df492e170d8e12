#!/usr/bin/env node
// The `service-sim` command. In a checkout (src/ present) it runs the TypeScript sources through
// tsx, so a stale dist/ left by a build can never answer instead of the code you are editing; an
// installed package ships only dist/. tsx is registered either way so that
// `--client ./my-client.ts` loads TypeScript directly.
import { existsSync } from 'node:fs'
import { register } from 'tsx/esm/api'

register()
const dist = new URL('../dist/cli/main.js', import.meta.url)
const src = new URL('../src/cli/main.ts', import.meta.url)
const { main } = await import(existsSync(src) ? src.href : dist.href)
process.exitCode = await main(process.argv.slice(2))
