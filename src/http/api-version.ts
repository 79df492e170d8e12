import { invalidRequest } from '#domain/service-error.js'

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
    throw invalidRequest(
      `Invalid ${header} '${value}': expected '<YYYY-MM-DD>.<release>' such as '2026-10-28.endive' or '2026-10-28.preview'.`,
      { code: 'invalid_api_version', param: header },
    )
  }
  return value
}
