/** True when the text has the shape of a UUID. Ids of any other shape cannot exist: they are simply unknown (404), never a database error. */
export const isUuid = (text: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
