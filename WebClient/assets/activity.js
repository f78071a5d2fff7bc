// The activity section: what happened on this account, newest first (GET /v1/account/activity,
// "Show more" follows `next`), in words, with the method, the passkey's name (looked up in the
// account's passkeys; one no longer there shows as deleted), the client address and the browser.
// (v4) What the support desk did says so, "… by support (NAME)" (the event's `actor`), with the
// reason of a lock; its events carry no client address or browser, and none is shown for them.
// "This wasn't me" ends every other session (DELETE /v1/account/sessions) and says so.
// The operator page's Accounts card lists an account's events with the same `item` and `describe`,
// passing that account's passkey names.

import { formatTime } from "./messages.js";
import { browserName } from "./user-agent.js";
import { $, say, setState, whileBusy, confirmDialog } from "./ui.js";

const PAGE_SIZE = 10;

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
  showState(page.events.length === 0 ? "Nothing recorded yet." : "");
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
  showState("The activity could not be loaded. Reload the page to try again.");
  if (e.code !== "unauthorized") ctx.fail(e);
}

function showState(text) {
  $("activity-state").textContent = text;
  $("activity-state").hidden = !text;
}

/** The passkey an event names: “its name”, or that it has been deleted since. */
function passkey(credentialID, names) {
  const name = names.get(credentialID);
  return name === undefined ? null : `“${name}”`;
}

const CREATED = {
  password: "Account created with a password",
  passkey: "Account created with a passkey",
  import: "Account imported",
};
const SIGN_IN = {
  password: "Signed in with the password",
  recovery: "Signed in with a recovery code",
  email: "Signed in with a code by email",
};
const FAILED = {
  password: "Failed sign-in: wrong password",
  recovery: "Failed sign-in: wrong recovery code",
  email: "Failed sign-in: wrong code from the email",
};

/**
 * The event in words; `names` maps credential IDs to the account's passkey names (by default those
 * of the signed-in account). An action of the support desk ends "by support (NAME)".
 */
export function describe(event, names = passkeyNames) {
  const what = happened(event, names);
  return event.actor ? `${what} by support (${event.actor})` : what;
}

function happened(event, names) {
  const key = passkey(event.credentialID, names);
  const which = key ? `the passkey ${key}` : "a passkey since deleted";
  switch (event.kind) {
    case "account.created":
      return CREATED[event.method] || "Account created";
    case "email.verified":
      return "Email address verified";
    case "email.changed":
      return "Email address changed";
    case "account.reclaimed":
      return "Account taken back by the owner of its email address (password removed, sessions ended)";
    case "sign-in":
      if (event.method === "passkey") return `Signed in with ${which}`;
      return SIGN_IN[event.method] || "Signed in";
    case "sign-in.failed":
      return FAILED[event.method] || "Failed sign-in";
    case "passkey.added": {
      const what = key ? `Passkey ${key}` : "A passkey since deleted was";
      if (event.method === "conditional") return `${what} added automatically after a password sign-in`;
      if (event.method === "sign-up") return `${what} created with the account`;
      return `${what} added`;
    }
    case "passkey.renamed":
      return key ? `Passkey renamed to ${key}` : "A passkey since deleted was renamed";
    case "passkey.deleted":
      return key ? `Passkey ${key} deleted` : "A passkey was deleted";
    case "password.set":
      return "Password set";
    case "password.removed":
      return "Password removed";
    case "recovery-codes.created":
      return "New recovery codes created (the earlier ones stopped working)";
    case "recovery-code.issued":
      // Before v4 the operator's name was only in `method` (no `actor`): said the same way.
      if (event.actor) return "Recovery code issued";
      return event.method ? `Recovery code issued by support (${event.method})` : "Recovery code issued by support";
    case "account.locked":
      return "Account locked";
    case "account.unlocked":
      return "Account unlocked";
    case "sessions.ended":
      if (event.method === "support") return "Every session was ended";
      return event.method === "one" ? "A session was ended" : "Every other session was ended";
    case "signed-out":
      return "Signed out";
    default:
      return event.kind;
  }
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
    reason.textContent = `Reason: “${event.reason}”`;
    text.append(reason);
  }
  if (event.userAgent) {
    const details = document.createElement("details");
    details.className = "event-agent";
    const summary = document.createElement("summary");
    summary.textContent = "Browser details";
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
    where.textContent = event.clientAddress;
    line.append(" · ", where);
  }
  if (event.userAgent || (event.clientAddress && event.clientAddress !== "command line")) {
    const browser = document.createElement("span");
    browser.className = "event-browser";
    browser.textContent = browserName(event.userAgent);
    line.append(" · ", browser);
  }
  return line;
}

async function notMe(ctx, button) {
  const confirmed = await confirmDialog(
    "End every other session?",
    "Every device signed in to this account, except this one, is signed out at once. " +
      "Then check your passkeys and, if you have one, change your password.",
    "End other sessions",
  );
  if (!confirmed) return;
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", "/v1/account/sessions");
    } catch (e) {
      ctx.fail(e);
      return;
    }
    await ctx.refresh(); // the sessions list and this list (which now shows it) again
    say(
      "Every other session was ended: whoever used them is signed out. " +
        "Check your passkeys below and change your password if you have one.",
      "success",
    );
    $("activity-heading").focus();
  });
}
