import type { AuthToken, CurrentUser, MfaSignInBody, SignInBody, Team } from '@locus/contract';
import type { PasswordOutcome } from '@locus/machines/authentication';
import { api, expect } from './api';
import { currentUserQueryKey, logout } from './logout';
import { queryClient } from './query-client';
import { sessionStore } from './session';

export { currentUserQueryKey, logout } from './logout';

/** Fetches the signed-in user and their teams and caches both (SPEC.md §3 "Local storage"). */
export async function reloadCurrentUser(): Promise<{ user: CurrentUser; teams: Team[] }> {
  const user = expect(await api.auth.currentUser(), 200);
  const teams = expect(await api.users.teams({ params: { id: user.id } }), 200);
  sessionStore.setUser(user, teams);
  return { user, teams };
}

/** Keeps a new token and loads the user it belongs to. */
export async function startSession(token: AuthToken): Promise<CurrentUser> {
  sessionStore.setToken(token);
  try {
    const { user } = await reloadCurrentUser();
    // Fresh already: the page-load refresh need not ask again.
    queryClient.setQueryData(currentUserQueryKey, user);
    return user;
  } catch (error) {
    sessionStore.clear();
    throw error;
  }
}

/**
 * The password step: a session straight away, or (the user has a second factor) the challenge
 * that `signInWithCode` answers.
 */
export async function signIn(body: SignInBody): Promise<PasswordOutcome> {
  const answer = expect(await api.auth.signIn({ body }), 200);
  if ('mfaRequired' in answer) {
    return { kind: 'second-factor', challenge: answer.challenge, methods: answer.methods };
  }
  await startSession(answer);
  return { kind: 'signed-in' };
}

/** Sign-in's second step: the challenge and a code from the app, or a recovery code. */
export async function signInWithCode(body: MfaSignInBody): Promise<CurrentUser> {
  return startSession(expect(await api.mfa.signInWithCode({ body }), 200));
}

/** Sign-out: revokes the token on the server, then logs out whatever the server said. */
export async function signOut(): Promise<void> {
  if (sessionStore.get().token !== null) {
    try {
      await api.auth.signOut();
    } catch {
      // Offline or already revoked: the local session goes anyway.
    }
  }
  logout();
}
