#!/usr/bin/env node
// The `service-sim` command. An installed package ships only dist/: it runs the built CLI with
// plain node, no loader (tsx is an optional peer, needed only for a `--client ./x.ts` module, and
// then loaded by the CLI itself). In a checkout (src/ present) it runs the TypeScript sources
// through tsx, a dev dependency there, so a stale dist/ left by a build can never answer instead
// of the code you are editing.
import { existsSync } from 'node:fs'

const src = new URL('../src/cli/main.ts', import.meta.url)
let entry = new URL('../dist/cli/main.js', import.meta.url)
if (existsSync(src)) {
  const { register } = await import('tsx/esm/api')
  register()
  entry = src
}
const { main } = await import(entry.href)
process.exitCode = await main(process.argv.slice(2))
