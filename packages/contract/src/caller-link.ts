// No zod here: the caller's page imports this, and its whole script must stay a few kilobytes.

/** A caller link's token: 256 random bits, base64url. Anything else is not worth asking about. */
export const callerLinkTokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** What the caller's page asks first (the contract's `tracking.callerLink`). */
export const callerLinkPath = '/api/v1/caller/link';
