// The header names are spelled once, in the kernel (see there); the HTTP layer imports them here.
export { type HeaderNames, headerNames } from '#kernel/header-names.js'
