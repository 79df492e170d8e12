/** The admin API as the dashboard reaches it: the same routes under its own path, its cookie sent. */
const API = '/__dashboard/api'

/**
 * An admin API answer that was not a 2xx, with the envelope's message.
 *
 * @example
 * new AdminCallError(404, "no such event 'evt_1'")
 */
export class AdminCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

async function answer<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T
  let message = `${response.status} ${response.statusText}`
  try {
    const body = (await response.json()) as { error?: { message?: string } }
    message = body.error?.message ?? message
  } catch {
    // Not JSON: the status line says enough.
  }
  throw new AdminCallError(response.status, message)
}

/**
 * Reads an admin route (`/events`, `/deliveries`, ...).
 *
 * @example
 * const { data } = await adminGet<{ data: EventJson[] }>('/events')
 */
export async function adminGet<T>(path: string): Promise<T> {
  return answer<T>(await fetch(`${API}${path}`, { headers: { Accept: 'application/json' } }))
}

/**
 * Calls an admin route that acts (a JSON body, as the admin API takes).
 *
 * @example
 * await adminPost('/deliveries/resend', { event: 'evt_1', destination: 'we_1' })
 */
export async function adminPost<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(
    await fetch(`${API}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    }),
  )
}

/**
 * The trace entries from `since` on (the admin API answers them as JSON lines).
 *
 * @example
 * const entries = await readTrace(0)
 */
export async function readTrace(since: number): Promise<TraceLine[]> {
  const response = await fetch(`${API}/trace?since=${since}`)
  if (!response.ok) throw new AdminCallError(response.status, `reading the trace: ${response.status}`)
  const text = await response.text()
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TraceLine)
}

/**
 * One trace entry as the admin API answers it.
 *
 * @example
 * const line: TraceLine = { seq: 3, at: 0, kind: 'http', data: { status: 200 } }
 */
export interface TraceLine {
  readonly seq: number
  readonly at: number
  readonly kind: string
  readonly data: Record<string, unknown>
}
