// Every problem+json `code` of the contract, and every WebAuthn error name, as a sentence a
// person can act on. The server's `detail` is never shown: it is for developers. (v4) The
// sentences are in the catalogues (catalogue-en.js, catalogue-ja.js): a code's is `code.<code>`.

// The server's own AAGUID → provider name table (KnownAuthenticatorNames.swift), served as a
// module it makes when it loads the web client; it names new passkeys the same way.
import { AUTHENTICATORS } from "./authenticator-names.js";
import { t, has, formatTime, formatWait } from "./language.js";

/** The message for an ApiError (or anything with a `code`). */
export function messageForCode(code, status) {
  if (code && has(`code.${code}`)) return t(`code.${code}`);
  return status ? t("error.httpStatus", { status }) : t("error.unknown");
}

/** A 429 with its Retry-After, in words ("in 3 minutes"); the plain message without one. */
export function messageForRateLimit(error, what = t("rateLimit.tooMany")) {
  const seconds = error && error.retryAfter;
  if (!seconds) return t("rateLimit.waitALittle", { what });
  return t("rateLimit.tryAgain", { what, when: formatWait(seconds) });
}

/** The message for an exception from navigator.credentials.create/get. */
export function messageForCeremony(error, ceremony, rpId) {
  switch (error && error.name) {
    case "NotAllowedError":
      return ceremony === "create" ? t("ceremony.notAllowedCreate") : t("ceremony.notAllowedGet");
    case "InvalidStateError":
      return t("ceremony.invalidState");
    case "SecurityError":
      return t("ceremony.security", { rpId });
    case "NotSupportedError":
      return t("ceremony.notSupported");
    case "AbortError":
      return t("ceremony.aborted");
    default:
      return t("ceremony.failed");
  }
}

/** Where a passkey lives: "synced", "can sync" or "this device only". */
export function describeBackup(passkey) {
  if (!passkey.backupEligible) return t("passkeys.deviceOnly");
  return passkey.backupState ? t("passkeys.synced") : t("passkeys.canSync");
}

/** "iCloud Keychain, synced", "Unknown authenticator, this device only", … */
export function describeAuthenticator(passkey, name = AUTHENTICATORS[passkey.aaguid]) {
  return t("passkeys.authenticatorLine", {
    name: name || t("passkeys.unknownAuthenticator"),
    where: describeBackup(passkey),
  });
}

/** "Created … · Last used …" (also the operator page's list of an account's passkeys). */
export function passkeyDates(passkey) {
  return t("passkeys.dates", { created: formatTime(passkey.createdAt), used: formatTime(passkey.lastUsedAt) });
}
