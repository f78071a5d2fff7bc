// The browser side of passkeys: feature detection, the WebAuthn JSON helpers (with a small
// fallback for browsers that lack them), one ceremony at a time, and the signal API.

const hasPublicKeyCredential = typeof window.PublicKeyCredential === "function";

/** What this browser can do; `supported` false means no passkeys at all here. */
export const support = {
  supported: hasPublicKeyCredential && window.isSecureContext && !!navigator.credentials,
  secureContext: window.isSecureContext,
  nativeJSON:
    hasPublicKeyCredential &&
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function" &&
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function" &&
    typeof PublicKeyCredential.prototype.toJSON === "function",
};

// ---- base64url <-> ArrayBuffer, only for browsers without the JSON helpers ----
function encode(buffer) {
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  let base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  while (base64.length % 4) base64 += "=";
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function creationOptions(json) {
  if (support.nativeJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: decode(json.challenge),
    user: { ...json.user, id: decode(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: decode(c.id) })),
  };
}

function requestOptions(json) {
  if (support.nativeJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return {
    ...json,
    challenge: decode(json.challenge),
    allowCredentials: (json.allowCredentials || []).map((c) => ({ ...c, id: decode(c.id) })),
  };
}

function credentialJSON(credential) {
  if (support.nativeJSON) return credential.toJSON();
  const r = credential.response;
  const response = { clientDataJSON: encode(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = encode(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = encode(r.authenticatorData);
    response.signature = encode(r.signature);
    response.userHandle = r.userHandle ? encode(r.userHandle) : null;
  }
  return {
    id: credential.id,
    rawId: encode(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment,
    clientExtensionResults: credential.getClientExtensionResults(),
    response,
  };
}

// ---- one ceremony at a time: a new one aborts the pending one (e.g. autofill) ----
let pending = null;

function begin() {
  if (pending) pending.abort(new DOMException("Replaced by another passkey request", "AbortError"));
  pending = new AbortController();
  return pending;
}

function end(controller) {
  if (pending === controller) pending = null;
}

/** Aborts whatever passkey request is pending (autofill, automatic upgrade). */
export function cancelPending() {
  if (pending) pending.abort(new DOMException("Cancelled", "AbortError"));
  pending = null;
}

/** navigator.credentials.create → RegistrationResponseJSON. `mediation` "conditional" for the upgrade. */
export async function createCredential(publicKeyJSON, mediation) {
  const controller = begin();
  try {
    const options = { publicKey: creationOptions(publicKeyJSON), signal: controller.signal };
    if (mediation) options.mediation = mediation;
    return credentialJSON(await navigator.credentials.create(options));
  } finally {
    end(controller);
  }
}

/** navigator.credentials.get → AuthenticationResponseJSON. `mediation` "conditional" for autofill. */
export async function getCredential(publicKeyJSON, mediation) {
  const controller = begin();
  try {
    const options = { publicKey: requestOptions(publicKeyJSON), signal: controller.signal };
    if (mediation) options.mediation = mediation;
    return credentialJSON(await navigator.credentials.get(options));
  } finally {
    end(controller);
  }
}

/** Autofill sign-in (conditional get) is available. */
export async function conditionalGetAvailable() {
  if (!support.supported || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return false;
  try {
    return await PublicKeyCredential.isConditionalMediationAvailable();
  } catch {
    return false;
  }
}

/** Automatic Passkey Upgrade (conditional create) is available. */
export async function conditionalCreateAvailable() {
  if (!support.supported || typeof PublicKeyCredential.getClientCapabilities !== "function") return false;
  try {
    const capabilities = await PublicKeyCredential.getClientCapabilities();
    return capabilities.conditionalCreate === true;
  } catch {
    return false;
  }
}

// ---- signal API: tell the password manager what the server knows; best effort, never fails ----
async function signal(name, details) {
  if (!hasPublicKeyCredential || typeof PublicKeyCredential[name] !== "function") return false;
  try {
    await PublicKeyCredential[name](details);
    return true;
  } catch {
    return false;
  }
}

/** The server does not know this credential (401 unknown-credential). */
export function signalUnknownCredential(rpId, credentialId) {
  return signal("signalUnknownCredential", { rpId, credentialId });
}

/** These are all of the account's passkeys (after a deletion). */
export function signalAllAcceptedCredentials(rpId, userId, allAcceptedCredentialIds) {
  return signal("signalAllAcceptedCredentials", { rpId, userId, allAcceptedCredentialIds });
}

/** The account's current name and display name. */
export function signalCurrentUserDetails(rpId, userId, name, displayName) {
  return signal("signalCurrentUserDetails", { rpId, userId, name, displayName });
}

/** The WebAuthn user handle of an account: the 16 bytes of its UUID, base64url. */
export function userHandle(accountID) {
  const hex = accountID.replace(/-/g, "");
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return encode(bytes.buffer);
}
