// (v4, issue 38) The support desk's Accounts card of the operator page: finds an account by its
// whole email address (GET /v1/operator/accounts?email=), shows it with its latest events
// (GET …/{accountID}, GET …/{accountID}/activity) and, for support and admin operators, acts on
// it: lock with a reason and unlock, end every session, remove a passkey, issue a recovery code.
// Each action but unlocking is confirmed first (the <dialog> of ui.js), then the account and its
// events are loaded again. A recovery code is shown once, in this card, until another account is
// looked up (a reload forgets it with the token). What the API returns only ever goes into the
// page as text (textContent): a display name, a passkey name, a reason or a browser stays text.
// State for people and the browser test: <section id="accounts" data-accounts="hidden|ready|
// loading|found|none|failed" data-can-act="unknown|true|false">, <div id="account"
// data-locked="true|false">, and data-fact on each figure shown (data-value: the API's value).

import { api } from "./api.js";
import { item as eventItem } from "./activity.js";
import { describeAuthenticator, messageForCode, passkeyDates } from "./messages.js";
import { t, formatTime, formatNumber } from "./language.js";
import { $, confirmDialog, whileBusy } from "./ui.js";

const EVENTS_SHOWN = 20;
// Names no account (not an account ID): the role probe below.
const PROBE_ACCOUNT = "role-probe";

// The stages as the catalogue says them.
const STAGES = {
  "password-only": "stage.passwordOnly",
  "password-and-passkey": "stage.both",
  "passkey-only": "stage.passkeyOnly",
  none: "stage.none",
};

let currentToken = () => null;
let canAct = null; // null: not known yet for this token (see probeRole)
let shown = null; // the account on the page, as the API gave it
let shownEvents = null; // its events, as the API gave them (null: not loaded)
let generation = 0;

/** Wires the card once; `token` answers the operator token the page holds (or null). */
export function wireAccounts(token) {
  currentToken = token;
  $("account-find-form").addEventListener("submit", (event) => {
    event.preventDefault();
    whileBusy($("account-find"), find);
  });
  $("account-lock-form").addEventListener("submit", (event) => {
    event.preventDefault();
    lock();
  });
  $("account-unlock").addEventListener("click", (e) => unlock(e.currentTarget));
  $("account-end-sessions").addEventListener("click", (e) => endSessions(e.currentTarget));
  $("account-issue-code").addEventListener("click", (e) => issueCode(e.currentTarget));
  $("account-code-copy").addEventListener("click", copyCode);
}

/** Shows the card; until it knows for this token, asks whether the token may act on accounts. */
export async function showAccounts() {
  $("accounts").hidden = false;
  if ($("accounts").dataset.accounts === "hidden") mark("ready");
  if (canAct !== null) return;
  const mine = generation;
  const allowed = await probeRole();
  if (mine !== generation) return;
  canAct = allowed;
  $("accounts").dataset.canAct = canAct === null ? "unknown" : String(canAct);
  if (shown) render(shown); // the actions, now that the role is known
}

/** After a switch of language: the account and its events in the new words (nothing is loaded). */
export function redrawAccounts() {
  if (shown) render(shown);
  if (shown && shownEvents) showEvents(shownEvents);
  const code = $("account-code");
  if (!code.hidden && shown) showCodeText(shown.email, code.dataset.expiresAt);
}

/** Hides the card and forgets the account, its code and the role (the token is gone). */
export function hideAccounts() {
  generation++;
  canAct = null;
  clearAccount();
  $("accounts").hidden = true;
  $("accounts").dataset.canAct = "unknown";
  $("account-none").hidden = true;
  $("account-email").value = "";
  note("");
  mark("hidden");
}

/** Nothing of the account shown stays in the page: its figures, passkeys, events and code. */
function clearAccount() {
  shown = null;
  shownEvents = null;
  hideCode();
  $("account").hidden = true;
  $("account-title").textContent = "";
  for (const id of ["account-facts", "account-passkeys", "account-events"]) $(id).replaceChildren();
  $("confirm-text").textContent = ""; // the last question named it too
}

function mark(state) {
  $("accounts").dataset.accounts = state;
}

/**
 * Whether this token may act on accounts. No endpoint tells an operator its own role, so the card
 * asks the one question that only the role check answers, once per token: POST unlock of a path
 * segment that is no account ID. Every operator route checks the role before anything else, so 404 (no such account)
 * means support or admin and 403 forbidden means viewer; no account is touched either way. The
 * buttons are hidden from a viewer only as a courtesy: the server refuses a viewer's action (403).
 * Any other answer (unreachable, the token refused) leaves it unknown, the actions hidden, and it
 * is asked again the next time the figures load.
 */
async function probeRole() {
  const token = currentToken();
  if (!token) return null;
  try {
    await api("POST", `/v1/operator/accounts/${PROBE_ACCOUNT}/unlock`, { token });
    return true; // not expected (no such account), but an allowed call all the same
  } catch (e) {
    if (e.status === 404) return true;
    return e.status === 403 ? false : null;
  }
}

// ---- the status line (role="status") and the alert (role="alert") of the card ----

/** The outcome of an action, or nothing (""); clears any alert. */
function note(text) {
  $("accounts-status").textContent = text;
  $("accounts-status").hidden = !text;
  $("accounts-alert").textContent = "";
  $("accounts-alert").hidden = true;
}

/** What went wrong; it hides the status line unless that still holds (`keepStatus`). */
function alarm(text, { keepStatus = false } = {}) {
  if (!keepStatus) $("accounts-status").hidden = true;
  $("accounts-alert").textContent = text;
  $("accounts-alert").hidden = false;
}

/**
 * The words for a refused or failed call; `what` names the action ("Locking the account"),
 * `invalid` says what a 400 means for it.
 */
function explain(error, what, invalid) {
  if (error.status === 400 && invalid) return invalid;
  if (error.status === 401) return t("accounts.wrongToken");
  if (error.status === 404) return t("accounts.gone");
  if (error.status === 409 && error.code === "account-locked") return t("accounts.alreadyLocked");
  if (error.status === 0 || error.status === 403 || error.status === 429 || error.status >= 500) {
    return messageForCode(error.code, error.status);
  }
  return t("accounts.failed", { what });
}

// ---- find, load, show ----

async function find() {
  const token = currentToken();
  if (!token) return;
  const input = $("account-email");
  const email = input.value.trim();
  if (!email || !input.checkValidity()) {
    alarm(email ? t("accounts.emailInvalid") : t("accounts.emailMissing"));
    input.focus();
    return;
  }
  const mine = ++generation;
  clearAccount(); // a code belongs to the account it was issued for: gone when another is looked up
  $("account-none").hidden = true;
  note("");
  mark("loading");
  let body;
  try {
    body = await api("GET", `/v1/operator/accounts?email=${encodeURIComponent(email)}`, { token });
  } catch (e) {
    if (mine !== generation) return;
    mark("failed");
    alarm(e.status === 400 ? t("accounts.emailInvalid") : explain(e, t("accounts.whatFind")));
    input.focus();
    return;
  }
  if (mine !== generation) return;
  const found = (body.accounts || [])[0];
  if (!found) {
    $("account-none").textContent = t("accounts.none", { email });
    $("account-none").hidden = false;
    mark("none");
    input.focus();
    return;
  }
  render(found);
  $("account-title").focus();
  await loadEvents(found.accountID, mine);
  if (mine === generation) mark("found");
}

/** Loads the account shown and its events again (after an action); false when it is gone. */
async function reload() {
  const token = currentToken();
  if (!token || !shown) return false;
  const mine = generation;
  const id = shown.accountID;
  mark("loading");
  let fresh;
  try {
    fresh = await api("GET", `/v1/operator/accounts/${encodeURIComponent(id)}`, { token });
  } catch (e) {
    if (mine !== generation) return false;
    if (e.status === 404) {
      forget();
    } else {
      mark("failed");
      alarm(t("accounts.loadFailed"), { keepStatus: true }); // what was done before stays said
    }
    return false;
  }
  if (mine !== generation) return false;
  render(fresh);
  await loadEvents(id, mine);
  mark("found");
  return true;
}

/** The account has gone (deleted meanwhile): nothing of it stays on the page. */
function forget() {
  clearAccount();
  mark("ready");
  alarm(t("accounts.gone"));
}

function render(account) {
  shown = account;
  const locked = Boolean(account.lockedAt);
  $("account").dataset.locked = String(locked);
  $("account").dataset.accountId = account.accountID;
  $("account-title").textContent = account.email;
  $("account-facts").replaceChildren(...facts(account));
  renderActions(locked);
  renderPasskeys(account);
  $("account").hidden = false;
}

/** Each figure as a <dt>/<dd> pair; the <dd> carries data-fact and the API's value. */
function facts(account) {
  const locked = Boolean(account.lockedAt);
  const rows = [
    ["email", t("common.email"), account.email, account.email],
    ["displayName", t("accounts.displayName"), account.displayName, account.displayName],
    ["accountID", t("accounts.accountID"), account.accountID, account.accountID],
    ["createdAt", t("accounts.created"), formatTime(account.createdAt), account.createdAt],
    ["stage", t("charts.stage"), STAGES[account.stage] ? t(STAGES[account.stage]) : account.stage, account.stage],
    ["hasPassword", t("common.password"), account.hasPassword ? t("common.yes") : t("common.no"), account.hasPassword],
    ["activeSessions", t("accounts.activeSessions"), formatNumber(account.activeSessions), account.activeSessions],
    ["recoveryCodesRemaining", t("accounts.codesLeft"), formatNumber(account.recoveryCodesRemaining),
      account.recoveryCodesRemaining],
    ["lockedAt", t("accounts.locked"),
      locked ? t("accounts.lockedSince", { time: formatTime(account.lockedAt) }) : t("common.no"), account.lockedAt || ""],
  ];
  if (locked) rows.push(["lockReason", t("accounts.lockReason"), account.lockReason || "", account.lockReason || ""]);
  const nodes = [];
  for (const [key, label, text, value] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.dataset.fact = key;
    dd.dataset.value = String(value);
    dd.textContent = text;
    if (key === "email") dd.append(" ", verifiedBadge(account.emailVerified));
    nodes.push(dt, dd);
  }
  return nodes;
}

function verifiedBadge(verified) {
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.dataset.fact = "emailVerified";
  badge.dataset.value = String(verified);
  badge.dataset.verified = String(verified);
  badge.textContent = verified ? t("email.verified") : t("email.notVerified");
  return badge;
}

/** Lock or unlock, whichever applies; none of the actions for a viewer (a note says why). */
function renderActions(locked) {
  $("account-actions").hidden = !canAct;
  $("account-viewer-note").hidden = canAct !== false;
  $("account-lock-form").hidden = locked;
  $("account-unlock").hidden = !locked;
}

function renderPasskeys(account) {
  const passkeys = account.passkeys || [];
  $("account-passkeys").replaceChildren(...passkeys.map(passkeyItem));
  $("account-passkeys-empty").hidden = passkeys.length > 0;
}

/** "iCloud Keychain, synced": the server's authenticatorName when it gives one, else the table's. */
function authenticator(passkey) {
  return describeAuthenticator(passkey, passkey.authenticatorName || undefined);
}

function passkeyItem(passkey) {
  const li = document.createElement("li");
  li.className = "passkey";
  li.dataset.credentialId = passkey.credentialID;
  const text = document.createElement("div");
  text.className = "passkey-text";
  const name = document.createElement("p");
  name.className = "passkey-name";
  name.textContent = passkey.name;
  const meta = document.createElement("p");
  meta.className = "passkey-meta";
  meta.textContent = authenticator(passkey);
  const dates = document.createElement("p");
  dates.className = "passkey-dates";
  dates.textContent = passkeyDates(passkey);
  text.append(name, meta, dates);
  li.append(text);
  if (canAct) {
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "danger";
    remove.dataset.action = "remove-passkey";
    remove.textContent = t("common.remove");
    remove.setAttribute("aria-label", t("accounts.removePasskeyLabel", { name: passkey.name }));
    remove.addEventListener("click", () => removePasskey(passkey, remove));
    const actions = document.createElement("div");
    actions.className = "passkey-actions";
    actions.append(remove);
    li.append(actions);
  }
  return li;
}

async function loadEvents(accountID, mine) {
  const token = currentToken();
  if (!token) return;
  const state = $("account-events-state");
  let page;
  try {
    page = await api("GET", `/v1/operator/accounts/${encodeURIComponent(accountID)}/activity?limit=${EVENTS_SHOWN}`,
      { token });
  } catch {
    if (mine !== generation) return;
    $("account-events").replaceChildren();
    shownEvents = null;
    state.textContent = t("accounts.eventsFailed");
    state.hidden = false;
    return;
  }
  if (mine !== generation || !shown) return;
  showEvents(page.events);
}

function showEvents(events) {
  shownEvents = events;
  const state = $("account-events-state");
  const names = new Map((shown.passkeys || []).map((p) => [p.credentialID, p.name]));
  $("account-events").replaceChildren(...events.map((event) => eventItem(event, names)));
  state.textContent = events.length === 0 ? t("activity.none") : "";
  state.hidden = events.length > 0;
}

// ---- the actions ----

/**
 * Runs one action on the account shown: asks first when `confirm` ({title, text, label}) is given,
 * then `request` with `button` busy; on success says `done` and loads the account again, on
 * failure says why (`what`, `invalid`: see explain) and loads it again too. Resolves to the
 * answer (true for 204), or null when it was cancelled or failed.
 */
async function act(button, { what, invalid, confirm, request, done }) {
  const account = shown;
  const token = currentToken();
  if (!account || !token) return null;
  if (confirm && !(await confirmDialog(confirm.title, confirm.text, confirm.label))) return null;
  if (shown !== account) return null; // another account was loaded meanwhile
  return whileBusy(button, async () => {
    note("");
    let answer;
    try {
      answer = await request(token, `/v1/operator/accounts/${encodeURIComponent(account.accountID)}`);
    } catch (e) {
      alarm(explain(e, what, invalid));
      if (await reload()) $("account-title").focus();
      return null;
    }
    note(done);
    await reload();
    return answer ?? true;
  });
}

async function lock() {
  const input = $("account-lock-reason");
  const reason = input.value.trim();
  if (!reason || reason.length > 200) {
    alarm(reason ? t("accounts.reasonInvalid") : t("accounts.reasonMissing"));
    input.focus();
    return;
  }
  const email = shown && shown.email;
  const locked = await act($("account-lock"), {
    what: t("accounts.whatLock"),
    invalid: t("accounts.reasonInvalid"),
    confirm: {
      title: t("accounts.lockTitle"),
      text: t("accounts.lockText", { email, reason }),
      label: t("accounts.lock"),
    },
    request: (token, path) => api("POST", `${path}/lock`, { token, body: { reason } }),
    done: t("accounts.lockDone", { email }),
  });
  if (locked) {
    input.value = "";
    $("account-unlock").focus();
  }
}

async function unlock(button) {
  const email = shown && shown.email;
  const unlocked = await act(button, {
    what: t("accounts.whatUnlock"),
    request: (token, path) => api("POST", `${path}/unlock`, { token }),
    done: t("accounts.unlockDone", { email }),
  });
  if (unlocked) $("account-lock-reason").focus();
}

async function endSessions(button) {
  const email = shown && shown.email;
  await act(button, {
    what: t("accounts.whatEndSessions"),
    confirm: {
      title: t("accounts.endSessionsTitle"),
      text: t("accounts.endSessionsText", { email }),
      label: t("accounts.endSessions"),
    },
    request: (token, path) => api("DELETE", `${path}/sessions`, { token }),
    done: t("accounts.endSessionsDone", { email }),
  });
}

async function removePasskey(passkey, button) {
  const removed = await act(button, {
    what: t("accounts.whatRemovePasskey"),
    confirm: {
      title: t("accounts.removePasskeyTitle"),
      text: t("accounts.removePasskeyText", { name: passkey.name, email: shown && shown.email }),
      label: t("accounts.removePasskey"),
    },
    request: (token, path) => api("DELETE", `${path}/passkeys/${encodeURIComponent(passkey.credentialID)}`, { token }),
    done: t("accounts.removePasskeyDone", { name: passkey.name }),
  });
  if (removed) $("account-passkeys-heading").focus();
}

async function issueCode(button) {
  const email = shown && shown.email;
  const issued = await act(button, {
    what: t("accounts.whatIssueCode"),
    confirm: {
      title: t("accounts.issueCodeTitle"),
      text: t("accounts.issueCodeText", { email }),
      label: t("accounts.issueCodeConfirm"),
    },
    request: (token, path) => {
      hideCode(); // the earlier code stops working now
      return api("POST", `${path}/recovery-code`, { token });
    },
    done: t("accounts.issueCodeDone", { email }),
  });
  if (issued) showCode(email, issued);
}

// ---- the recovery code, shown once ----

function showCode(email, issued) {
  $("account-code-value").textContent = issued.code;
  showCodeText(email, issued.expiresAt);
  $("account-code").dataset.expiresAt = issued.expiresAt;
  $("account-code").hidden = false;
  $("account-code-copy").focus();
}

/** The words around the code (again after a switch of language). */
function showCodeText(email, expiresAt) {
  $("account-code-label").textContent = t("accounts.codeLabel", { email });
  $("account-code-expiry").textContent = t("accounts.codeExpiry", { time: formatTime(expiresAt) });
}

function hideCode() {
  $("account-code").hidden = true;
  $("account-code-value").textContent = "";
  $("account-code-expiry").textContent = "";
  delete $("account-code").dataset.expiresAt;
}

async function copyCode() {
  const code = $("account-code-value").textContent;
  if (!code) return;
  try {
    if (!navigator.clipboard || !navigator.clipboard.writeText) throw new Error("no clipboard");
    await navigator.clipboard.writeText(code);
    note(t("accounts.copied"));
  } catch {
    note(t("accounts.copyUnavailable"));
    const range = document.createRange(); // selected, ready for Ctrl+C
    range.selectNodeContents($("account-code-value"));
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
}
