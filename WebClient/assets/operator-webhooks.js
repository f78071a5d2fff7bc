// (v4) The webhooks card of the operator page: lists the endpoints (GET /v1/operator/webhooks),
// adds one (POST), gives one a new secret (POST …/secret) and removes one (DELETE). A secret is
// shown once, in this card, right after it was made; it is never stored by the page.
// State for people and the browser test: <section id="webhooks" data-webhooks="hidden|loading|
// ready|forbidden|failed">. An operator whose role is not admin sees the card without its form:
// the server would refuse the actions anyway (403 forbidden).

import { api } from "./api.js";
import { $, say, whileBusy } from "./ui.js";

let currentToken = () => null;

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
  $("webhook-list").replaceChildren();
  mark("hidden");
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

/** The server's words for a refusal, or a plain sentence. */
function explain(error, what) {
  if (error.status === 0) return "The server could not be reached. Try again.";
  if (error.status === 503 && error.code === "webhooks-unavailable") {
    return "This server cannot store webhook secrets (DATA_ENCRYPTION_KEY is not set).";
  }
  if (error.status === 400 && error.detail) return `${what}: ${error.detail}`;
  if (error.status === 404) return "That endpoint no longer exists. The list has been refreshed.";
  if (error.status === 403) return "Only operators with the admin role manage webhooks.";
  return `${what} failed. Try again.`;
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
      const note = document.createElement("p");
      note.className = "hint";
      note.textContent = "Webhooks are managed by operators with the admin role.";
      $("webhook-list").replaceChildren(note);
      $("webhook-form").hidden = true;
      mark("forbidden");
      return;
    }
    mark("failed");
    say(explain(e, "Loading the webhooks"), "error");
    return;
  }
  $("webhook-form").hidden = false;
  render(body.webhooks || []);
  mark("ready");
}

function render(webhooks) {
  const list = $("webhook-list");
  if (webhooks.length === 0) {
    const empty = document.createElement("p");
    empty.className = "empty";
    empty.textContent = "No endpoints yet: nothing is sent.";
    list.replaceChildren(empty);
    return;
  }
  const table = document.createElement("table");
  const caption = document.createElement("caption");
  caption.textContent = "Webhook endpoints";
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  for (const label of ["URL", "Event kinds", "Pending", "Abandoned", "Last delivery", "Actions"]) {
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
      hook.url + (hook.description ? ` (${hook.description})` : ""),
      hook.events.length ? hook.events.join(", ") : "every kind",
      String(hook.pending),
      String(hook.abandoned),
      hook.lastDeliveredAt ? new Date(hook.lastDeliveredAt).toLocaleString() : "none yet",
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      row.append(td);
    }
    const actions = document.createElement("td");
    actions.append(
      button("New secret", `Give ${hook.url} a new secret`, "rotate", (b) => rotate(hook, b)),
      button("Remove", `Remove ${hook.url}`, "remove", (b) => remove(hook, b)));
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
    say("Enter the endpoint's URL.", "error");
    return true;
  }
  const events = $("webhook-events").value.split(",").map((k) => k.trim()).filter(Boolean);
  const description = $("webhook-description").value.trim();
  hideSecret();
  let created;
  try {
    created = await api("POST", "/v1/operator/webhooks", { token, body: { url, events, description } });
  } catch (e) {
    say(explain(e, "Adding the endpoint"), "error");
    return true;
  }
  $("webhook-form").reset();
  say(`Added ${created.url}.`, "success");
  showSecret(`The secret of ${created.url}. Copy it now: it is shown only this once.`, created.secret);
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
    say(explain(e, "Making a new secret"), "error");
    await refresh();
    return;
  }
  say(`${hook.url} has a new secret; for 24 hours the old one still signs too.`, "success");
  showSecret(`The new secret of ${hook.url}. Copy it now: it is shown only this once.`, body.secret);
}

async function remove(hook) {
  const token = currentToken();
  if (!token) return;
  hideSecret();
  try {
    await api("DELETE", `/v1/operator/webhooks/${encodeURIComponent(hook.webhookID)}`, { token });
    say(`Removed ${hook.url}: nothing more is sent to it.`, "success");
  } catch (e) {
    say(explain(e, "Removing the endpoint"), "error");
  }
  await refresh();
  $("webhooks-heading").focus();
}
