import { describe, expect, it } from 'vitest'
import { runHostile } from './hostile-requests.js'

describe('hostile input', () => {
  it('answers thousands of generated hostile requests without a hang, a 5xx, a throw or a change on refusal', async () => {
    const failures: string[] = []
    const figures = await runHostile({
      seed: 13,
      count: 5000,
      onFailure: (what, request, detail) => failures.push(`${what}: ${request.init.method ?? 'GET'} ${request.url} ${detail}`),
    })
    expect(failures.slice(0, 5)).toEqual([])
    expect(figures).toMatchObject({
      requests: 5000,
      hangs: 0,
      serverErrors: 0,
      throws: 0,
      stateChangesOn4xx: 0,
      throwsAfterCommit: 0,
      internalFailures: 0,
      balanceFailures: 0,
    })
    // The generator must reach past validation too, or the figures above prove little.
    expect(figures.statuses['2xx'] ?? 0).toBeGreaterThan(100)
    expect(figures.fetchTypeErrors).toBeGreaterThan(0)
  }, 60_000)
})
