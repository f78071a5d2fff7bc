// (v4) The webhooks card of the operator page: lists the endpoints (GET /v1/operator/webhooks),
// adds one (POST), gives one a new secret (POST …/secret) and removes one (DELETE). A secret is
// shown once, in this card, right after it was made; it is never stored by the page.
// State for people and the browser test: <section id="webhooks" data-webhooks="hidden|loading|
// ready|forbidden|failed">. An operator whose role is not admin sees the card without its form:
// the server would refuse the actions anyway (403 forbidden).

import { api } from "./api.js";
import { $, say, whileBusy } from "./ui.js";
import { t, formatNumber, formatTime } from "./language.js";

let currentToken = () => null;
let listed = null; // the endpoints last shown, as the API gave them

/** Wires the form once; `token` answers the operator token the page holds (or null). */
export function wireWebhooks(token) {
  currentToken = token;
  $("webhook-form").addEventListener("submit", (event) => {
    event.preventDefault();
    // The form is disabled while the request runs: the URL field is focused once it is back.
    whileBusy($("webhook-add"), add).then((refused) => {
      if (refused) $("webhook-url").focus();
    });
  });
}

/** Shows the card and loads the list. */
export async function showWebhooks() {
  $("webhooks").hidden = false;
  await refresh();
}

/** Hides the card and forgets any secret shown. */
export function hideWebhooks() {
  $("webhooks").hidden = true;
  hideSecret();
  listed = null;
  $("webhook-list").replaceChildren();
  mark("hidden");
}

/** After a switch of language: the list in the new words (nothing is loaded). */
export function redrawWebhooks() {
  const state = $("webhooks").dataset.webhooks;
  if (state === "ready" && listed) render(listed);
  if (state === "forbidden") showForbidden();
}

function mark(state) {
  $("webhooks").dataset.webhooks = state;
}

function hideSecret() {
  $("webhook-secret").hidden = true;
  $("webhook-secret-value").textContent = "";
}

function showSecret(label, secret) {
  $("webhook-secret-label").textContent = label;
  $("webhook-secret-value").textContent = secret;
  $("webhook-secret").hidden = false;
}

/**
 * The refusals the server explains in its `detail` (English, naming the field it refused first),
 * each with its sentence in the catalogues and the bound it states; the limits are the server's
 * (docs/webhooks.md).
 */
const REFUSALS = [
  { field: "url", key: "webhooks.refusedURL", max: 2048 },
  { field: "events", key: "webhooks.refusedEvents" },
  { field: "description", key: "webhooks.refusedDescription", max: 200 },
  { field: "at", key: "webhooks.refusedLimit", max: 100 },
];

/** A refusal in the reader's language; the server's own words only for one this page does not know. */
function explain(error, what) {
  if (error.status === 0) return t("operator.unreachable");
  if (error.status === 503 && error.code === "webhooks-unavailable") return t("code.webhooks-unavailable");
  if (error.status === 400 && error.detail) {
    const refusal = REFUSALS.find((r) => error.detail.split(" ")[0] === r.field);
    if (refusal) return t(refusal.key, { what, max: formatNumber(refusal.max ?? 0) });
    return t("webhooks.refused", { what, detail: error.detail });
  }
  if (error.status === 404) return t("webhooks.gone");
  if (error.status === 403) return t("webhooks.adminOnly");
  return t("accounts.failed", { what });
}

/** A viewer or support operator: the card says who manages webhooks, without the form. */
function showForbidden() {
  const note = document.createElement("p");
  note.className = "hint";
  note.textContent = t("webhooks.forbidden");
  $("webhook-list").replaceChildren(note);
  $("webhook-form").hidden = true;
}

async function refresh() {
  const token = currentToken();
  if (!token) return;
  mark("loading");
  let body;
  try {
    body = await api("GET", "/v1/operator/webhooks", { token });
  } catch (e) {
    if (e.status === 403) {
      showForbidden();
      mark("forbidden");
      return;
    }
    mark("failed");
    say(explain(e, t("webhooks.whatLoad")), "error", { focus: false });
    return;
  }
  $("webhook-form").hidden = false;
  render(body.webhooks || []);
  mark("ready");
}

// The table's column headers (catalogue keys).
const COLUMNS = ["webhooks.url", "webhooks.events", "webhooks.pending", "webhooks.abandoned", "webhooks.lastDelivery",
  "accounts.actions"];

function render(webhooks) {
  listed = webhooks;
  const list = $("webhook-list");
  if (webhooks.length === 0) {
    const empty = document.createElement("p");
    empty.className = "empty";
    empty.textContent = t("webhooks.none");
    list.replaceChildren(empty);
    return;
  }
  const table = document.createElement("table");
  const caption = document.createElement("caption");
  caption.textContent = t("webhooks.caption");
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  for (const label of COLUMNS.map((key) => t(key))) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = label;
    headRow.append(th);
  }
  head.append(headRow);
  const rows = document.createElement("tbody");
  for (const hook of webhooks) {
    const row = document.createElement("tr");
    row.dataset.webhookId = hook.webhookID;
    const cells = [
      hook.description ? t("webhooks.urlWithDescription", { url: hook.url, description: hook.description }) : hook.url,
      hook.events.length ? hook.events.join(", ") : t("webhooks.everyKind"),
      formatNumber(hook.pending),
      formatNumber(hook.abandoned),
      hook.lastDeliveredAt ? formatTime(hook.lastDeliveredAt) : t("webhooks.noneYet"),
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      row.append(td);
    }
    const actions = document.createElement("td");
    actions.append(
      button(t("webhooks.newSecret"), t("webhooks.newSecretLabel", { url: hook.url }), "rotate",
        (b) => rotate(hook, b)),
      button(t("common.remove"), t("webhooks.removeLabel", { url: hook.url }), "remove", (b) => remove(hook, b)));
    row.append(actions);
    rows.append(row);
  }
  table.append(caption, head, rows);
  list.replaceChildren(table);
}

function button(text, label, action, run) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "secondary";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.dataset.action = action;
  b.addEventListener("click", () => whileBusy(b, () => run(b)));
  return b;
}

/** Adds the endpoint of the form; true when it was refused (the URL field is focused then). */
async function add() {
  const token = currentToken();
  if (!token) return false;
  const url = $("webhook-url").value.trim();
  if (!url) {
    say(t("webhooks.urlMissing"), "error", { focus: false });
    return true;
  }
  const events = $("webhook-events").value.split(",").map((k) => k.trim()).filter(Boolean);
  const description = $("webhook-description").value.trim();
  hideSecret();
  let created;
  try {
    created = await api("POST", "/v1/operator/webhooks", { token, body: { url, events, description } });
  } catch (e) {
    say(explain(e, t("webhooks.whatAdd")), "error", { focus: false });
    return true;
  }
  $("webhook-form").reset();
  say(t("webhooks.added", { url: created.url }), "success");
  showSecret(t("webhooks.secretLabel", { url: created.url }), created.secret);
  await refresh();
  return false;
}

async function rotate(hook) {
  const token = currentToken();
  if (!token) return;
  hideSecret();
  let body;
  try {
    body = await api("POST", `/v1/operator/webhooks/${encodeURIComponent(hook.webhookID)}/secret`, { token });
  } catch (e) {
    say(explain(e, t("webhooks.whatRotate")), "error");
    await refresh();
    return;
  }
  say(t("webhooks.rotated", { url: hook.url }), "success");
  showSecret(t("webhooks.newSecretText", { url: hook.url }), body.secret);
}

async function remove(hook) {
  const token = currentToken();
  if (!token) return;
  hideSecret();
  try {
    await api("DELETE", `/v1/operator/webhooks/${encodeURIComponent(hook.webhookID)}`, { token });
    say(t("webhooks.removed", { url: hook.url }), "success");
  } catch (e) {
    say(explain(e, t("webhooks.whatRemove")), "error");
  }
  await refresh();
  $("webhooks-heading").focus();
}
