const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The key of an `Authorization: Bearer <key>` header; undefined when the header has another form. */
export function bearerToken(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
}
