import { createHash, randomBytes } from 'node:crypto';

/** An opaque token for the client; only its hash is stored. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
