// The public API report: api-extractor reads the built declarations of every entry of package.json's
// `exports` and writes the types of each export to etc/<entry>.api.md. `--check` (CI) fails when
// the declarations differ from the committed report; without it the report is rewritten, to be
// committed with the change (and a changeset when users see it).
// Run after `npm run build`: `npm run api` records, `npm run api:check` checks.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const check = process.argv.includes('--check')

/** Every entry of `exports` that has types, as [import specifier, declaration file]. */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && target.types)
  .map(([key, target]) => [key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, target.types])

/** `service-sim/harness` -> `service-sim-harness`: one report file per entry. */
const reportName = (specifier) => specifier.replaceAll('/', '-')

function configFor(specifier, types) {
  return ExtractorConfig.prepare({
    configObjectFullPath: join(root, 'api-extractor.json'),
    packageJsonFullPath: join(root, 'package.json'),
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: join(root, types),
      compiler: { tsconfigFilePath: join(root, 'tsconfig.build.json') },
      apiReport: {
        enabled: true,
        reportFileName: reportName(specifier),
        reportFolder: join(root, 'etc'),
        // Types reachable from an export but not exported by name are part of the surface too.
        includeForgottenExports: true,
        reportTempFolder: join(root, 'test', '.generated', 'api-report'),
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          // Release tags (@public, @beta) are not used: every export of an entry is public.
          'ae-missing-release-tag': { logLevel: 'none' },
          // Missing TSDoc is the docs tests' business, not the report's.
          'ae-undocumented': { logLevel: 'none' },
          'ae-unresolved-link': { logLevel: 'none' },
          // Types reachable from an export but not exported by name are listed in the report.
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
        },
        // The TSDoc is checked by the docs' own tests and by TypeDoc; here only the types count.
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
  })
}

const missing = entries.filter(([, types]) => !existsSync(join(root, types)))
if (missing.length > 0) {
  console.error(`api-report: ${missing.map(([, t]) => t).join(', ')} missing; run npm run build first`)
  process.exit(2)
}

mkdirSync(join(root, 'etc'), { recursive: true })
mkdirSync(join(root, 'test', '.generated', 'api-report'), { recursive: true })
const changed = []
for (const [specifier, types] of entries) {
  const result = Extractor.invoke(configFor(specifier, types), {
    localBuild: !check,
    showVerboseMessages: false,
    messageCallback: (message) => {
      // The report is the product: api-extractor's note that it changed is said once below.
      if (message.messageId === 'console-api-report-changed' || message.messageId === 'console-api-report-copied')
        message.handled = true
    },
  })
  if (result.apiReportChanged) changed.push(`etc/${reportName(specifier)}.api.md`)
  if (result.errorCount > 0) {
    console.error(`api-report: ${specifier}: ${result.errorCount} errors`)
    process.exit(1)
  }
}
if (check && changed.length > 0) {
  console.error(
    `api-report: the public API differs from ${changed.join(', ')}.\n` +
      'If the change is meant, record it with `npm run api` (after `npm run build`), commit the report, and add a changeset (`npx changeset`).',
  )
  process.exit(1)
}
console.log(
  check
    ? `api-report: the public API of ${entries.length} entries is the recorded one`
    : `api-report: ${entries.length} entries; ${changed.length === 0 ? 'no change' : `rewritten: ${changed.join(', ')}`}`,
)
