const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the text has the shape of a UUID: for validating what is stored or trusted (an identity header, a setting), not for lookups (`storedId`). */
export const isUuid = (text: string): boolean => UUID.test(text);

/**
 * An id a client sent, as a stored row could carry it: the UUID lower-cased, or null. The one
 * station where a malformed id becomes an unknown one (docs/architecture.md, Rules of the house):
 * only repositories call it, before the id reaches a query, so a lookup answers null (the
 * contract's 404, as for an unknown id or another tenant's), a list or batch nothing, and
 * PostgreSQL, whose uuid cast would fail with a 500, never sees it.
 */
export const storedId = (id: string | null | undefined): string | null => (typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : null);

/** The ids among these that a stored row could carry, lower-cased, each once (`storedId` for many: the others name nothing). */
export const storedIds = (ids: readonly (string | null | undefined)[]): string[] => [...new Set(ids.map(storedId).filter((id): id is string => id !== null))];
