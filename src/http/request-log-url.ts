/**
 * Where a request's record is read: the admin API's `requests/{id}` on the host the request was
 * addressed to (decision: `request_log_url` names the admin record until a dashboard page exists).
 * Over `serve` the address is the server's own, read with the admin token; in process it names the
 * same path, and the record is the request's `http` entry of `sim.trace`.
 *
 * @example
 * requestLogUrl('http://127.0.0.1:12111/v1/customers/cus_x', 'req_1') // 'http://127.0.0.1:12111/__sim/requests/req_1'
 */
export function requestLogUrl(href: string, requestId: string): string {
  return `${new URL(href).origin}${REQUEST_LOG_PATH}${requestId}`
}

/**
 * The admin API's path of one request record, before its id.
 *
 * @example
 * `${REQUEST_LOG_PATH}req_1` // '/__sim/requests/req_1'
 */
export const REQUEST_LOG_PATH = '/__sim/requests/'
