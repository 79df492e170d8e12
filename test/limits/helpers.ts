import type { Simulator } from '../../src/index.js'

/** Calls `sim.fetch` with the platform's key of `mode`; `/v1` bodies form-encoded, `/v2` JSON. */
export function call(
  sim: Simulator,
  mode: 'test' | 'live',
  method: string,
  path: string,
  options: { body?: Record<string, string> | object; headers?: Record<string, string>; key?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.key ?? sim.platform.secretKey[mode]}`,
    ...options.headers,
  }
  let body: string | undefined
  if (options.body !== undefined) {
    if (path.startsWith('/v2/')) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(options.body)
    } else {
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(options.body as Record<string, string>).toString()
    }
  } else if (method === 'POST' && path.startsWith('/v2/')) {
    headers['Content-Type'] = 'application/json'
    body = '{}'
  }
  return sim.fetch(`https://api.service.test${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
}

/** Sends `n` requests one after another (not concurrent) and returns their statuses. */
export async function sequential(n: number, send: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < n; i++) {
    const res = await send()
    await res.text()
    statuses.push(res.status)
  }
  return statuses
}
