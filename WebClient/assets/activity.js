// The activity section: what happened on this account, newest first (GET /v1/account/activity,
// "Show more" follows `next`), in words, with the method, the passkey's name (looked up in the
// account's passkeys; one no longer there shows as deleted), the client address and the browser.
// (v4) What the support desk did says so, "… by support (NAME)" (the event's `actor`), with the
// reason of a lock; its events carry no client address or browser, and none is shown for them.
// "This wasn't me" ends every other session (DELETE /v1/account/sessions) and says so.
// The operator page's Accounts card lists an account's events with the same `item` and `describe`,
// passing that account's passkey names.

import { t, formatTime } from "./language.js";
import { browserName } from "./user-agent.js";
import { $, say, setState, whileBusy, confirmDialog } from "./ui.js";

const PAGE_SIZE = 10;
// The client address the server records for its own commands (`passkey-server recovery-code`).
const COMMAND_LINE = "command line";

let generation = 0;
let next = null;
let passkeyNames = new Map();

export function wire(ctx) {
  $("activity-more").addEventListener("click", (e) => loadMore(ctx, e.currentTarget));
  $("not-me").addEventListener("click", (e) => notMe(ctx, e.currentTarget));
}

/** After every account render: the passkeys' current names, then the first page again. */
export function render(ctx, account) {
  passkeyNames = new Map(account.passkeys.map((p) => [p.credentialID, p.name]));
  load(ctx);
}

/** On sign-out: nothing of the account's history stays on the page. */
export function reset() {
  generation++;
  next = null;
  $("activity-list").replaceChildren();
  $("activity-more").hidden = true;
}

async function fetchPage(ctx, before) {
  const query = `limit=${PAGE_SIZE}` + (before ? `&before=${encodeURIComponent(before)}` : "");
  return ctx.call("GET", `/v1/account/activity?${query}`);
}

async function load(ctx) {
  const mine = ++generation;
  setState("activity", "loading");
  let page;
  try {
    page = await fetchPage(ctx, null);
  } catch (e) {
    if (mine !== generation) return;
    failed(ctx, e);
    return;
  }
  if (mine !== generation) return;
  $("activity-list").replaceChildren(...page.events.map((event) => item(event)));
  showPage(page);
  showState(page.events.length === 0 ? t("activity.none") : "");
}

async function loadMore(ctx, button) {
  const mine = generation;
  await whileBusy(button, async () => {
    setState("activity", "loading");
    let page;
    try {
      page = await fetchPage(ctx, next);
    } catch (e) {
      if (mine === generation) failed(ctx, e);
      return;
    }
    if (mine !== generation) return;
    $("activity-list").append(...page.events.map((event) => item(event)));
    showPage(page);
  });
}

function showPage(page) {
  next = page.next || null;
  $("activity-more").hidden = !next;
  setState("activity", "ready");
}

function failed(ctx, e) {
  setState("activity", "failed");
  showState(t("activity.loadFailed"));
  if (e.code !== "unauthorized") ctx.fail(e);
}

function showState(text) {
  $("activity-state").textContent = text;
  $("activity-state").hidden = !text;
}

/** The passkey an event names: “its name”, or null when it has been deleted since. */
function passkey(credentialID, names) {
  const name = names.get(credentialID);
  return name === undefined ? null : t("common.quoted", { text: name });
}

// Each event kind (and method) as its catalogue key; activity.passkey* take the passkey's name.
const CREATED = {
  password: "activity.createdPassword",
  passkey: "activity.createdPasskey",
  import: "activity.imported",
};
const SIGN_IN = {
  password: "activity.signInPassword",
  recovery: "activity.signInRecovery",
  email: "activity.signInEmail",
};
const FAILED = {
  password: "activity.failedPassword",
  recovery: "activity.failedRecovery",
  email: "activity.failedEmail",
};
const PLAIN = {
  "email.verified": "activity.emailVerified",
  "email.changed": "activity.emailChanged",
  "account.reclaimed": "activity.reclaimed",
  "password.set": "activity.passwordSet",
  "password.removed": "activity.passwordRemoved",
  "recovery-codes.created": "activity.codesCreated",
  "account.locked": "activity.locked",
  "account.unlocked": "activity.unlocked",
  "signed-out": "activity.signedOut",
};
/** By how a passkey was added: the key with its name, and the key for one deleted since. */
const ADDED = {
  modal: ["activity.passkeyAdded", "activity.deletedPasskeyAdded"],
  conditional: ["activity.passkeyAddedAutomatic", "activity.deletedPasskeyAddedAutomatic"],
  "sign-up": ["activity.passkeyAddedWithAccount", "activity.deletedPasskeyAddedWithAccount"],
};

/**
 * The event in words; `names` maps credential IDs to the account's passkey names (by default those
 * of the signed-in account). An action of the support desk ends "by support (NAME)".
 */
export function describe(event, names = passkeyNames) {
  const what = happened(event, names);
  return event.actor ? t("activity.bySupport", { what, actor: event.actor }) : what;
}

function happened(event, names) {
  const key = passkey(event.credentialID, names);
  if (PLAIN[event.kind]) return t(PLAIN[event.kind]);
  switch (event.kind) {
    case "account.created":
      return t(CREATED[event.method] || "activity.created");
    case "sign-in":
      if (event.method === "passkey") {
        return key ? t("activity.signInPasskey", { name: key }) : t("activity.signInDeletedPasskey");
      }
      return t(SIGN_IN[event.method] || "activity.signIn");
    case "sign-in.failed":
      return t(FAILED[event.method] || "activity.failed");
    case "passkey.added":
      return passkeyAdded(event.method, key);
    case "passkey.renamed":
      return key ? t("activity.passkeyRenamed", { name: key }) : t("activity.deletedPasskeyRenamed");
    case "passkey.deleted":
      return key ? t("activity.passkeyDeleted", { name: key }) : t("activity.aPasskeyDeleted");
    case "recovery-code.issued":
      // Before v4 the operator's name was only in `method` (no `actor`): said the same way.
      if (event.actor) return t("activity.codeIssued");
      return event.method ? t("activity.codeIssuedBy", { actor: event.method }) : t("activity.codeIssuedBySupport");
    case "sessions.ended":
      if (event.method === "support") return t("activity.everySessionEnded");
      return event.method === "one" ? t("activity.oneSessionEnded") : t("activity.otherSessionsEnded");
    default:
      return event.kind;
  }
}

function passkeyAdded(method, key) {
  const [named, deleted] = ADDED[method] || ADDED.modal;
  return key ? t(named, { name: key }) : t(deleted);
}

/** One event as a list item, text only; `names` as for `describe`. */
export function item(event, names = passkeyNames) {
  const li = document.createElement("li");
  li.className = "passkey event";
  li.dataset.eventId = event.eventID;
  li.dataset.kind = event.kind;
  if (event.method) li.dataset.method = event.method;
  if (event.actor) li.dataset.actor = event.actor;
  if (event.kind.endsWith(".failed")) li.dataset.failed = "true";
  const text = document.createElement("div");
  text.className = "passkey-text";
  const title = document.createElement("h3");
  title.className = "event-what";
  title.textContent = describe(event, names);
  text.append(title, meta(event));
  if (event.reason) {
    const reason = document.createElement("p");
    reason.className = "event-reason";
    reason.textContent = t("activity.reason", { reason: event.reason });
    text.append(reason);
  }
  if (event.userAgent) {
    const details = document.createElement("details");
    details.className = "event-agent";
    const summary = document.createElement("summary");
    summary.textContent = t("activity.browserDetails");
    const full = document.createElement("code");
    full.className = "event-user-agent";
    full.textContent = event.userAgent;
    details.append(summary, full);
    text.append(details);
  }
  li.append(text);
  return li;
}

/**
 * When, and from where: the client address and the browser's short name. The support desk's
 * actions have neither (null), a command on the server host has no browser: only what is known.
 */
function meta(event) {
  const line = document.createElement("p");
  line.className = "passkey-dates event-meta";
  const time = document.createElement("time");
  time.dateTime = event.occurredAt;
  time.textContent = formatTime(event.occurredAt);
  line.append(time);
  if (event.clientAddress) {
    const where = document.createElement("span");
    where.className = "event-address";
    where.textContent = event.clientAddress === COMMAND_LINE ? t("activity.commandLine") : event.clientAddress;
    line.append(" · ", where);
  }
  if (event.userAgent || (event.clientAddress && event.clientAddress !== COMMAND_LINE)) {
    const browser = document.createElement("span");
    browser.className = "event-browser";
    browser.textContent = browserName(event.userAgent);
    line.append(" · ", browser);
  }
  return line;
}

async function notMe(ctx, button) {
  const confirmed = await confirmDialog(t("activity.notMeTitle"), t("activity.notMeText"), t("activity.notMeConfirm"));
  if (!confirmed) return;
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", "/v1/account/sessions");
    } catch (e) {
      ctx.fail(e);
      return;
    }
    await ctx.refresh(); // the sessions list and this list (which now shows it) again
    say(t("activity.notMeDone"), "success");
    $("activity-heading").focus();
  });
}
