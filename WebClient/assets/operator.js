// The operator page (/operator/): asks for OPERATOR_TOKEN, keeps it in this module's memory only
// (no storage, no cookie: a reload forgets it), reads GET /v1/operator/adoption?days=N and draws
// each figure as an SVG chart made here (charts.js) with its numbers beside it and a table view;
// (v4) below them, the support desk's accounts (operator-accounts.js) and the webhook endpoints
// (operator-webhooks.js).
// State for people and the browser test: <html data-operator="asking|loading|ready|wrong-token|
// failed" data-empty="true|false" data-tables="shown|hidden">.

import { api } from "./api.js";
import { $, say, setState, whileBusy } from "./ui.js";
import * as charts from "./charts.js";
import { hideAccounts, showAccounts, wireAccounts } from "./operator-accounts.js";
import { hideWebhooks, showWebhooks, wireWebhooks } from "./operator-webhooks.js";

let token = null;
let generation = 0;

const METHODS = [
  { key: "password", label: "Password", cls: "s-password" },
  { key: "passkey", label: "Passkey", cls: "s-passkey" },
  { key: "recovery", label: "Recovery code", cls: "s-recovery" },
  { key: "email", label: "Code by email", cls: "s-email" },
];
const MODES = [
  { key: "modal", label: "Modal (button)", cls: "s-modal" },
  { key: "conditional", label: "Conditional (automatic upgrade)", cls: "s-conditional" },
  { key: "signUp", label: "Sign-up", cls: "s-signup" },
];

function wire() {
  wireWebhooks(() => token);
  wireAccounts(() => token);
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("operator-token");
    const value = input.value.trim();
    if (!value) {
      say("Enter the operator token (the server's OPERATOR_TOKEN).", "error");
      input.focus();
      return;
    }
    token = value;
    input.value = ""; // the token stays in this module's memory, not in the page
    // The form is disabled while the request runs: a refused token is asked again once it is back.
    whileBusy($("token-submit"), () => load({ focus: true })).then(() => {
      if (!token) input.focus();
    });
  });
  $("days").addEventListener("change", () => load({ focus: false }));
  $("forget-token").addEventListener("click", () => {
    ask("The token was forgotten. Enter it again to see the figures.", "info");
  });
  $("show-tables").addEventListener("click", (e) => {
    const shown = document.documentElement.dataset.tables !== "shown";
    setState("tables", shown ? "shown" : "hidden");
    e.currentTarget.setAttribute("aria-pressed", String(shown));
    e.currentTarget.textContent = shown ? "Show charts only" : "Show tables";
  });
}

/** Back to the token form: the token is dropped, the figures hidden. */
function ask(message, kind) {
  token = null;
  generation++;
  $("figures").hidden = true;
  hideAccounts();
  hideWebhooks();
  $("operator-controls").hidden = true;
  $("token-card").hidden = false;
  setState("operator", kind === "error" ? "wrong-token" : "asking");
  say(message, kind);
  $("operator-token").focus();
}

async function load({ focus }) {
  if (!token) return;
  const mine = ++generation;
  const days = $("days").value;
  setState("operator", "loading");
  let data;
  try {
    data = await api("GET", `/v1/operator/adoption?days=${encodeURIComponent(days)}`, { token });
  } catch (e) {
    if (mine !== generation) return;
    if (e.status === 401) {
      ask("That token is wrong: the server did not accept it. Enter the operator token again.", "error");
    } else if (e.status === 404) {
      ask("The operator figures are turned off on this server (OPERATOR_TOKEN is not set).", "error");
      setState("operator", "failed");
    } else {
      setState("operator", "failed");
      say(e.status === 0 ? "The server could not be reached. Try again." : "The figures could not be loaded. Try again.", "error");
    }
    return;
  }
  if (mine !== generation) return;
  render(data, Number(days));
  $("token-card").hidden = true;
  $("operator-controls").hidden = false;
  $("figures").hidden = false;
  say("");
  setState("operator", "ready");
  if (focus) $("stages-heading").focus();
  await Promise.all([showAccounts(), showWebhooks()]);
}

const sum = (days, get) => days.reduce((total, day) => total + get(day), 0);
const signIns = (day) => METHODS.reduce((total, m) => total + (day.signIns[m.key] || 0), 0);

function render(data, window) {
  const days = data.days || [];
  const noSignIns = sum(days, signIns) === 0;
  setState("empty", String(noSignIns));
  $("generated-at").textContent =
    `Figures of the last ${window} days (UTC), made ${new Date(data.generatedAt).toLocaleString()}.`;
  fill("chart-stages", stages(data.accounts));
  fill("chart-sign-ins", signInsByMethod(days, noSignIns));
  fill("chart-share", passkeyShare(days, noSignIns));
  fill("chart-added", passkeysAdded(days));
  fill("chart-upgrade", upgrade(data.upgrade, noSignIns));
}

function fill(id, nodes) {
  document.querySelector(`#${id} .chart-body`).replaceChildren(...nodes);
}

function stages(accounts) {
  const total = accounts.total;
  const items = [
    { key: "passwordOnly", label: "① Password only", cls: "s-password", value: accounts.passwordOnly },
    { key: "passwordAndPasskey", label: "② Password and passkey", cls: "s-both", value: accounts.passwordAndPasskey },
    { key: "passkeyOnly", label: "③ Passkey only", cls: "s-passkey", value: accounts.passkeyOnly },
  ];
  const share = (n) => (total > 0 ? ` (${charts.formatShare(n / total)})` : "");
  const numbers = charts.figures([
    { key: "accounts.total", label: "Accounts", value: total, text: charts.formatCount(total) },
    ...items.map((i) => ({
      key: `accounts.${i.key}`, label: i.label, value: i.value, text: charts.formatCount(i.value) + share(i.value),
    })),
    {
      key: "accounts.emailVerified", label: "Email verified", value: accounts.emailVerified,
      text: charts.formatCount(accounts.emailVerified) + share(accounts.emailVerified),
    },
  ]);
  const rows = items.map((i) => [i.label, charts.formatCount(i.value), total > 0 ? charts.formatShare(i.value / total) : "—"]);
  const tableView = charts.table("Accounts by stage, now", ["Stage", "Accounts", "Share"], rows);
  if (total === 0) return [charts.empty("No accounts yet."), numbers, tableView];
  return [charts.horizontalBars("Accounts by stage", items), numbers, tableView];
}

function signInsByMethod(days, noSignIns) {
  const series = METHODS.map((m) => ({ ...m, value: (d) => d.signIns[m.key] || 0 }));
  const total = sum(days, signIns);
  const numbers = charts.figures([
    { key: "signIns.total", label: "Sign-ins", value: total, text: charts.formatCount(total) },
    ...series.map((s) => {
      const n = sum(days, s.value);
      return { key: `signIns.${s.key}`, label: s.label, value: n, text: charts.formatCount(n) };
    }),
  ]);
  const tableView = charts.table(
    "Sign-ins by method per day (UTC)", ["Day", ...METHODS.map((m) => m.label), "All"],
    days.map((d) => [d.date, ...series.map((s) => charts.formatCount(s.value(d))), charts.formatCount(signIns(d))]));
  if (noSignIns) return [charts.empty("No sign-ins yet in this window."), numbers];
  return [charts.stackedBars("Sign-ins by method per day", days, series), charts.legend(series), numbers, tableView];
}

function passkeyShare(days, noSignIns) {
  const share = (d) => (signIns(d) > 0 ? (d.signIns.passkey || 0) / signIns(d) : null);
  const total = sum(days, signIns);
  const passkey = sum(days, (d) => d.signIns.passkey || 0);
  const overall = total > 0 ? passkey / total : 0;
  const withData = days.filter((d) => share(d) !== null);
  const last = withData.length ? withData[withData.length - 1] : null;
  const numbers = charts.figures([
    { key: "share.window", label: "Passkey share, whole window", value: overall, text: charts.formatShare(overall) },
    {
      key: "share.lastDay", label: last ? `Latest day with sign-ins (${last.date})` : "Latest day with sign-ins",
      value: last ? share(last) : 0, text: last ? charts.formatShare(share(last)) : "—",
    },
  ]);
  if (noSignIns) return [charts.empty("No sign-ins yet: no share to show."), numbers];
  const tableView = charts.table(
    "Passkey share of sign-ins per day (UTC)", ["Day", "Passkey sign-ins", "All sign-ins", "Share"],
    days.map((d) => [
      d.date, charts.formatCount(d.signIns.passkey || 0), charts.formatCount(signIns(d)),
      share(d) === null ? "no sign-ins" : charts.formatShare(share(d)),
    ]));
  return [charts.shareLine("Passkey share of sign-ins per day", days, share), numbers, tableView];
}

function passkeysAdded(days) {
  const series = MODES.map((m) => ({ ...m, value: (d) => d.passkeysAdded[m.key] || 0 }));
  const total = sum(days, (d) => series.reduce((n, s) => n + s.value(d), 0));
  const numbers = charts.figures([
    { key: "added.total", label: "Passkeys added", value: total, text: charts.formatCount(total) },
    ...series.map((s) => {
      const n = sum(days, s.value);
      return { key: `added.${s.key}`, label: s.label, value: n, text: charts.formatCount(n) };
    }),
  ]);
  if (total === 0) return [charts.empty("No passkeys added yet in this window."), numbers];
  const tableView = charts.table(
    "Passkeys added per day by mode (UTC)", ["Day", ...MODES.map((m) => m.label)],
    days.map((d) => [d.date, ...series.map((s) => charts.formatCount(s.value(d)))]));
  return [charts.stackedBars("Passkeys added per day by mode", days, series), charts.legend(series), numbers, tableView];
}

function upgrade(figures, noSignIns) {
  const numbers = charts.figures([
    {
      key: "upgrade.passwordSignIns", label: "Password sign-ins without a passkey", value: figures.passwordSignIns,
      text: charts.formatCount(figures.passwordSignIns),
    },
    {
      key: "upgrade.followedByPasskey", label: "… whose session added a passkey", value: figures.followedByPasskey,
      text: charts.formatCount(figures.followedByPasskey),
    },
    { key: "upgrade.rate", label: "Upgrade rate", value: figures.rate, text: charts.formatShare(figures.rate) },
  ]);
  if (figures.passwordSignIns === 0) {
    return [charts.empty(noSignIns ? "No sign-ins yet." : "No password sign-ins of accounts without a passkey in this window."), numbers];
  }
  const tableView = charts.table(
    "Upgrade rate over the window", ["Figure", "Value"],
    [
      ["Password sign-ins without a passkey", charts.formatCount(figures.passwordSignIns)],
      ["Of those, sessions that added a passkey", charts.formatCount(figures.followedByPasskey)],
      ["Upgrade rate", charts.formatShare(figures.rate)],
    ]);
  return [charts.meter("Upgrade rate", figures.rate), numbers, tableView];
}

setState("tables", "hidden");
wire();
$("operator-token").focus();
