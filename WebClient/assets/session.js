// The signed-in session: kept in sessionStorage (this tab only, gone when it closes), so a
// reload stays signed in. The strict Content-Security-Policy is what keeps other script away
// from it.

const KEY = "passkey-server.session";

/** The stored Session ({accessToken, expiresAt, accountID, displayName, method}) or null. */
export function loadSession() {
  try {
    const session = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (!session || !session.accessToken) return null;
    if (session.expiresAt && Date.parse(session.expiresAt) <= Date.now()) {
      clearSession();
      return null;
    }
    return session;
  } catch {
    return null;
  }
}

export function saveSession(session) {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession() {
  sessionStorage.removeItem(KEY);
}
