import { PREVIEW_RELEASE } from '#catalogue/rules.js'
import { tableError } from '#domain/service-error.js'

const VERSION = /^(\d{4})-(\d{2})-(\d{2})(?:\.([a-z][a-z0-9_]*))?$/

/**
 * Validates a `Service-Version` value: `<date>.<release>` (release `preview` included) or a bare
 * date as older versions were. Returns it unchanged; an invalid value is a 400.
 *
 * @example
 * parseApiVersion('2026-10-28.endive', 'Service-Version') // '2026-10-28.endive'
 * parseApiVersion('yesterday', 'Service-Version')         // throws 400 invalid_api_version
 */
export function parseApiVersion(value: string, header: string): string {
  const m = VERSION.exec(value)
  const valid =
    m !== null &&
    (() => {
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
      const date = new Date(Date.UTC(y, mo - 1, d))
      return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
    })()
  if (!valid) {
    throw tableError(
      'invalid_api_version',
      { header, value, example: '2026-10-28.endive', preview: `2026-10-28.${PREVIEW_RELEASE}` },
      { param: header },
    )
  }
  return value
}
