// Access tokens are short-lived JWTs; refresh tokens are JWTs naming a database row, so each one can
// be used once (rotation) and a reused one gives away a stolen family.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { UserType } from '@mooz/contract/permissions';

interface AccessClaims {
  userId: number;
  userType: UserType;
  familyId: string;
}

/** Verified access claims, with the token's expiry (seconds since the epoch, as in the JWT). */
export interface VerifiedAccess extends AccessClaims {
  expiresAt: number;
}

interface RefreshClaims {
  tokenId: string;
  userId: number;
  familyId: string;
}

const ISSUER = 'mooz';
const key = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(secret: string, claims: AccessClaims, ttlSeconds: number) {
  return new SignJWT({ typ: 'access', role: claims.userType, fam: claims.familyId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key(secret));
}

export async function signRefreshToken(secret: string, claims: RefreshClaims, expiresAt: Date) {
  return new SignJWT({ typ: 'refresh', fam: claims.familyId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setSubject(String(claims.userId))
    .setJti(claims.tokenId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key(secret));
}

async function verify(secret: string, token: string, typ: 'access' | 'refresh') {
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    if (payload.typ !== typ || !payload.sub || typeof payload.fam !== 'string') return null;
    return payload;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/** The claims of a valid, unexpired access token, or null. */
export async function verifyAccessToken(secret: string, token: string): Promise<VerifiedAccess | null> {
  const payload = await verify(secret, token, 'access');
  if (!payload) return null;
  const role = payload.role;
  if (role !== 'student' && role !== 'teacher' && role !== 'admin') return null;
  // Every token we sign expires; one without `exp` is not ours.
  if (typeof payload.exp !== 'number') return null;
  return { userId: Number(payload.sub), userType: role, familyId: payload.fam as string, expiresAt: payload.exp };
}

export async function verifyRefreshToken(secret: string, token: string): Promise<RefreshClaims | null> {
  const payload = await verify(secret, token, 'refresh');
  if (!payload?.jti) return null;
  return { tokenId: payload.jti, userId: Number(payload.sub), familyId: payload.fam as string };
}
