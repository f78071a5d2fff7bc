// Every problem+json `code` of the contract, and every WebAuthn error name, as a sentence a
// person can act on. The server's `detail` is never shown: it is for developers.

// The server's own AAGUID → provider name table (KnownAuthenticatorNames.swift), served as a
// module it makes when it loads the web client; it names new passkeys the same way.
import { AUTHENTICATORS } from "./authenticator-names.js";

const CODES = {
  "invalid-request": "Something in the form is not valid. Check the email address and name (1–64 characters).",
  "weak-password": "Choose a longer password: at least 8 characters.",
  "email-taken": "An account with this email address already exists. Sign in instead.",
  "invalid-credentials": "That email address and password do not match an account.",
  "rate-limited": "Too many attempts. Wait a little and try again.",
  unauthorized: "Your session has ended. Sign in again.",
  "conditional-not-allowed": "Automatic passkey creation is only possible right after a password sign-in.",
  "challenge-unavailable": "That took too long or was already used. Please try again.",
  "registration-unavailable": "That sign-up took too long or was already completed. Please start again.",
  "registration-mismatch": "The email address or name changed during sign-up. Please start again.",
  "registration-verification-failed": "The passkey could not be verified, so it was not saved.",
  "credential-exists": "This passkey is already registered.",
  "authentication-failed": "The passkey could not be verified. Try again, or use another sign-in method.",
  "unknown-credential":
    "This passkey is not registered here any more (it may have been deleted). Your password manager has been told; use another passkey or your password.",
  "last-credential": "This is your only way to sign in. Add another passkey (or keep a password) before deleting it.",
  "passkey-not-yet-used":
    "The password stays until one of your passkeys has signed you in at least once: sign out, then sign in with a passkey.",
  "recovery-not-set-up":
    "Create recovery codes first (section “Recovery codes” below), or verify your email address, so that you can still get in if you lose your passkeys.",
  "reauthentication-required": "For your safety this needs a recent sign-in. Sign in again, then repeat it.",
  "passkey-limit-reached":
    "Your account already holds as many passkeys as it may. Delete one you no longer use (section “Passkeys”), then add the new one.",
  "invalid-code": "That code is wrong, was already used or has expired. Check the latest email, or send a new code.",
  "email-already-verified": "Your address is verified already.",
  "mail-unavailable":
    "This server does not send email, so codes cannot be mailed here. Use a passkey, your password or a recovery code.",
  "tokens-unavailable": "This server does not issue tokens for other services.",
  "webhooks-unavailable": "This server cannot store webhook secrets (DATA_ENCRYPTION_KEY is not set).",
  forbidden: "Your operator role does not allow this.",
  "account-locked": "This account is locked by the support desk. Contact support to unlock it.",
  "not-found": "That no longer exists. The page has been refreshed.",
  "method-not-allowed": "The server does not support this action.",
  "payload-too-large": "That is too much data to send.",
  "service-unavailable": "The service is busy or unavailable right now. Try again in a moment.",
  internal: "Something went wrong on the server. Try again later.",
  network: "The server could not be reached. Check your connection and try again.",
};

/** The message for an ApiError (or anything with a `code`). */
export function messageForCode(code, status) {
  if (CODES[code]) return CODES[code];
  return status ? `The request failed (HTTP ${status}).` : "Something went wrong.";
}

/** A 429 with its Retry-After, in words ("in 3 minutes"); the plain message without one. */
export function messageForRateLimit(error, what = "Too many attempts.") {
  const seconds = error && error.retryAfter;
  if (!seconds) return `${what} Wait a little and try again.`;
  const minutes = Math.ceil(seconds / 60);
  const when = seconds < 60 ? `${seconds} seconds` : minutes === 1 ? "a minute" : `${minutes} minutes`;
  return `${what} Try again in ${when}.`;
}

/** The message for an exception from navigator.credentials.create/get. */
export function messageForCeremony(error, ceremony, rpId) {
  switch (error && error.name) {
    case "NotAllowedError":
      return ceremony === "create"
        ? "No passkey was created: the request was cancelled or timed out."
        : "No passkey was used: the request was cancelled, timed out, or no passkey for this site was found.";
    case "InvalidStateError":
      return "This device or password manager already holds a passkey for this account.";
    case "SecurityError":
      return `The browser refused: this page's address does not belong to the passkey domain "${rpId}". Open the page at that domain (for a local server: http://localhost:8080/, not 127.0.0.1).`;
    case "NotSupportedError":
      return "This browser or device cannot create a passkey of the kind this site needs.";
    case "AbortError":
      return "The passkey request was stopped.";
    default:
      return "The passkey request failed in the browser.";
  }
}

/** "iCloud Keychain, synced", "Unknown authenticator, this device only", … */
export function describeAuthenticator(passkey) {
  const name = AUTHENTICATORS[passkey.aaguid] || "Unknown authenticator";
  const where = passkey.backupEligible ? (passkey.backupState ? "synced" : "can sync") : "this device only";
  return `${name}, ${where}`;
}

/** A timestamp for people, in their locale; "never" for null. */
export function formatTime(iso) {
  if (!iso) return "never";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
