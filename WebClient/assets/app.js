// The reference web client: the talk's flows in the order a user meets them. This module owns
// the session and the signed-out view (sign up, sign in with a password or a passkey, autofill,
// passkey-only accounts; recovery.js adds the recovery-code sign-in, email-sign-in.js the code by
// email and the offer after an email-taken sign-up); account.js renders the
// signed-in view from its sections.

import { api, ApiError } from "./api.js";
import { messageForCode, messageForCeremony } from "./messages.js";
import { t, startLanguage, onLanguageChange } from "./language.js";
import { loadSession, saveSession, clearSession } from "./session.js";
import { $, say, setState, whileBusy, showView, fields, valid, translateMessages } from "./ui.js";
import * as webauthn from "./webauthn.js";
import { wireAccount, renderAccount, resetAccount } from "./account.js";
import { tryAutomaticUpgrade, applySupport } from "./passkeys.js";
import * as emailSignIn from "./email-sign-in.js";

const state = {
  session: loadSession(),
  rpId: sessionStorage.getItem("passkey-server.rpId") || location.hostname,
};

/** Remembers the RP ID the server names in its options (for the signal API). */
function rememberRelyingParty(options) {
  if (options && options.relyingPartyID) {
    state.rpId = options.relyingPartyID;
    sessionStorage.setItem("passkey-server.rpId", state.rpId);
  }
}

/** What the account sections use: the session, authenticated calls, error display. */
const ctx = {
  get session() {
    return state.session;
  },
  get rpId() {
    return state.rpId;
  },
  rememberRelyingParty,
  /** An authenticated call; a 401 ends the local session and shows the sign-in view. */
  async call(method, path, body) {
    try {
      return await api(method, path, { body, token: state.session && state.session.accessToken });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && e.code === "unauthorized") endLocalSession();
      throw e;
    }
  },
  fail,
  refresh: () => showAccount({ focus: false }),
  signIn: (session) => signedIn(session),
  /** The session has ended on the server (ended here, or the account was deleted). */
  endSession: () => endLocalSession(),
  /** Remembered with the session: a recovery session then stops offering "Add a passkey". */
  markPasskeyAdded() {
    if (!state.session) return;
    state.session.passkeyAdded = true;
    saveSession(state.session);
  },
};

/** Shows an error as a human message; "sign in again" gets a button that does it. */
function fail(error, ceremony) {
  if (error instanceof ApiError) {
    if (error.code === "reauthentication-required") {
      say(messageForCode(error.code), "error", { action: { label: t("app.signInAgain"), run: signInAgain } });
    } else if (error.code === "unauthorized") {
      say(messageForCode(error.code), "error");
    } else {
      say(messageForCode(error.code, error.status), "error");
    }
  } else if (error instanceof DOMException) {
    say(messageForCeremony(error, ceremony, state.rpId), "error");
  } else {
    console.error(error); // a bug in this page: the browser test fails on it
    say(t("error.page"), "error");
  }
}

// ---- views ----
/** The account last shown: rendered again in the new words when the language changes. */
let shownAccount = null;

async function showAccount({ focus = true } = {}) {
  const account = await ctx.call("GET", "/v1/account");
  shownAccount = account;
  renderAccount(ctx, account);
  $("whoami-name").textContent = account.displayName;
  $("whoami").hidden = false;
  showView("account", { focus });
  return account;
}

function showSignedOut({ focus = true } = {}) {
  shownAccount = null;
  resetAccount();
  emailSignIn.reset();
  emailSignIn.hideTakenOffer();
  $("whoami").hidden = true;
  showView("signed-out", { focus });
  startAutofill();
}

function endLocalSession() {
  clearSession();
  state.session = null;
  webauthn.cancelPending();
  showSignedOut();
}

async function signedIn(session) {
  webauthn.cancelPending(); // the autofill request, if any
  autofillGeneration++;
  clearTimeout(autofillTimer);
  if (document.documentElement.dataset.autofill === "pending") setState("autofill", "stopped");
  saveSession(session);
  state.session = session;
  return showAccount();
}

async function signOut() {
  const token = state.session && state.session.accessToken;
  clearSession();
  state.session = null;
  if (token) {
    try {
      await api("DELETE", "/v1/sessions/current", { token });
    } catch {
      // Already ended (401) or unreachable: locally signed out either way.
    }
  }
  webauthn.cancelPending();
  showSignedOut();
}

/** After 403 reauthentication-required: a fresh sign-in, with the email filled in. */
async function signInAgain() {
  const email = $("account-email").textContent;
  await signOut();
  $("sign-in-email").value = email;
  say(t("app.signInAgainHint"), "info");
  $("passkey-sign-in").focus();
}

// ---- sign in with a passkey: autofill (conditional get, from page load) and the button ----
let autofillTimer = null;
let autofillGeneration = 0;

async function startAutofill() {
  const generation = ++autofillGeneration;
  clearTimeout(autofillTimer);
  if (state.session || !(await webauthn.conditionalGetAvailable())) {
    setState("autofill", "unavailable");
    return;
  }
  let options;
  try {
    options = await api("POST", "/v1/passkeys/authentications");
  } catch {
    if (generation === autofillGeneration) setState("autofill", "failed");
    return;
  }
  if (generation !== autofillGeneration || state.session) return;
  rememberRelyingParty(options);
  // A fresh challenge shortly before this one expires, so that autofill keeps working.
  const renewIn = Math.max(10000, Date.parse(options.expiresAt) - Date.now() - 5000);
  autofillTimer = setTimeout(() => {
    if (!state.session) startAutofill();
  }, renewIn);
  setState("autofill", "pending");
  let credential;
  try {
    credential = await webauthn.getCredential(options.publicKey, "conditional");
  } catch (e) {
    if (generation === autofillGeneration) setState("autofill", e.name === "AbortError" ? "stopped" : "failed");
    return;
  }
  clearTimeout(autofillTimer);
  setState("autofill", "used");
  try {
    await finishPasskeySignIn(options, credential);
    say(t("app.signedInPasskey"), "success");
  } catch (e) {
    fail(e, "get");
    startAutofill();
  }
}

async function finishPasskeySignIn(options, credential) {
  let session;
  try {
    session = await api("POST", "/v1/passkeys/authentications/finish", {
      body: { challengeID: options.challengeID, credential },
    });
  } catch (e) {
    if (e instanceof ApiError && e.code === "unknown-credential") {
      webauthn.signalUnknownCredential(state.rpId, credential.id);
    }
    throw e;
  }
  await signedIn(session);
}

async function passkeySignIn(button) {
  await whileBusy(button, async () => {
    try {
      const options = await api("POST", "/v1/passkeys/authentications");
      rememberRelyingParty(options);
      autofillGeneration++; // the modal request replaces the autofill one
      const credential = await webauthn.getCredential(options.publicKey);
      await finishPasskeySignIn(options, credential);
      say(t("app.signedInPasskey"), "success");
    } catch (e) {
      fail(e, "get");
      if (!state.session) startAutofill();
    }
  });
}

// ---- password accounts ----
async function passwordSignUp(event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const { email, displayName } = fields(form);
  const password = $("sign-up-password").value; // never trimmed
  emailSignIn.hideTakenOffer();
  let taken = false;
  await whileBusy($("password-sign-up"), async () => {
    try {
      await api("POST", "/v1/accounts", { body: { email, displayName, password } });
      form.reset();
      $("sign-in-email").value = email;
      say(t("app.accountCreated"), "success");
      $("sign-in-password").focus();
    } catch (e) {
      fail(e);
      taken = e instanceof ApiError && e.code === "email-taken";
    }
  });
  if (taken) emailSignIn.offerForTakenEmail(email);
}

async function passwordSignIn(event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const email = $("sign-in-email").value.trim();
  const password = $("sign-in-password").value;
  let account;
  await whileBusy($("password-sign-in"), async () => {
    try {
      const session = await api("POST", "/v1/sessions", { body: { email, password } });
      $("sign-in-password").value = "";
      account = await signedIn(session);
      say(t("app.signedInPassword"), "success");
    } catch (e) {
      fail(e);
    }
  });
  if (account && account.passkeys.length === 0) tryAutomaticUpgrade(ctx);
}

// ---- a new account with a passkey only ----
async function createPasskeyAccount(event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const { email, displayName } = fields(form);
  await whileBusy($("passkey-account-create"), async () => {
    let credential = null;
    try {
      const options = await api("POST", "/v1/passkey-accounts/registrations", { body: { email, displayName } });
      rememberRelyingParty(options);
      autofillGeneration++;
      credential = await webauthn.createCredential(options.publicKey);
      const session = await api("POST", "/v1/passkey-accounts/registrations/finish", {
        body: { registrationID: options.registrationID, email, displayName, credential },
      });
      form.reset();
      await signedIn(session);
      say(t("app.welcomePasskey"), "success");
    } catch (e) {
      // The device may now hold a passkey for an account that was not created: say so to it.
      if (credential && e instanceof ApiError) webauthn.signalUnknownCredential(state.rpId, credential.id);
      fail(e, "create");
      if (!state.session) startAutofill();
      if (e instanceof ApiError && e.code === "email-taken") emailSignIn.offerForTakenEmail(email);
    }
  });
}

/** A new language: what scripts wrote is written again, the messages shown too. */
function languageChanged() {
  translateMessages("verify-state");
  applySupport();
  if (shownAccount) renderAccount(ctx, shownAccount);
}

// ---- start ----
function start() {
  startLanguage();
  onLanguageChange(languageChanged);
  applySupport();
  $("sign-in-form").addEventListener("submit", passwordSignIn);
  $("password-sign-up-form").addEventListener("submit", passwordSignUp);
  $("passkey-account-form").addEventListener("submit", createPasskeyAccount);
  $("passkey-sign-in").addEventListener("click", (e) => passkeySignIn(e.currentTarget));
  $("sign-out").addEventListener("click", (e) =>
    whileBusy(e.currentTarget, async () => {
      await signOut();
      say(t("app.signedOut"), "info");
    }),
  );
  wireAccount(ctx);
  emailSignIn.wire(ctx);
  if (state.session) {
    showAccount({ focus: false }).catch((e) => {
      fail(e);
      if (state.session) endLocalSession(); // e.g. unreachable: start from the sign-in view
    });
  } else {
    showSignedOut({ focus: false });
  }
}

start();
