/** An id or cursor of the webhook and event lists: a UUID (anything else is not found). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The page size of the webhook and event lists when `limit` is left out. */
export const DEFAULT_LIMIT = 20;
