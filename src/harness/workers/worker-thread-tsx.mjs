// Worker thread entry when the harness runs from its TypeScript sources (vitest, tsx): a worker
// thread does not inherit a loader registered at run time (vitest's), so tsx is registered here
// before the real worker body is imported.
import { register } from 'tsx/esm/api'

register()
await import('./worker-thread.ts')
