import type { ResourceDeclaration } from '../engine/declaration.js'

/** The type of a file as the provider names it: its extension (`pdf`, `png`), else from its media type. */
function fileType(name: string | undefined, media: string | undefined): string | null {
  const ext = name?.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : ''
  if (ext !== '') return ext
  const sub = media?.slice(media.indexOf('/') + 1).toLowerCase()
  return sub === undefined || sub === '' ? null : sub
}

/**
 * Files: uploaded with `multipart/form-data` (on the files host, `files.stripe.com`, or the API
 * host), kept as metadata (name, size, type, purpose); the bytes are not kept.
 */
export const files: ResourceDeclaration = {
  type: 'File',
  object: 'file',
  idPrefix: 'file',
  defaults: ({ id }) => ({ url: `https://files.stripe.com/v1/files/${id}/contents` }),
  behaviours: {
    'files.create'(call, next) {
      const { file, ...params } = call.params
      const data = (file ?? {}) as { data?: unknown; name?: string; type?: string }
      const bytes = typeof data.data === 'string' ? data.data.length : 0
      return next(params, {
        filename: data.name ?? null,
        title: data.name ?? null,
        size: bytes,
        type: fileType(data.name, data.type),
      })
    },
  },
}
