// The operator page (/operator/): asks for an operator's token (v4: a named operator's, or OPERATOR_TOKEN), keeps it in this module's memory only
// (no storage, no cookie: a reload forgets it), reads GET /v1/operator/adoption?days=N and draws
// each figure as an SVG chart made here (charts.js) with its numbers beside it and a table view;
// (v4) below them, the support desk's accounts (operator-accounts.js) and the webhook endpoints
// (operator-webhooks.js).
// State for people and the browser test: <html data-operator="asking|loading|ready|wrong-token|
// failed" data-empty="true|false" data-tables="shown|hidden">.
// (v4, issue 40) Every word from the catalogues (language.js); a switch of language draws the
// figures, the account and the webhooks again from what was last loaded (the token stays).

import { api } from "./api.js";
import { $, say, setState, whileBusy, translateMessages } from "./ui.js";
import { t, formatNumber, formatTime, formatDate, startLanguage, onLanguageChange } from "./language.js";
import * as charts from "./charts.js";
import { hideAccounts, showAccounts, wireAccounts, redrawAccounts } from "./operator-accounts.js";
import { hideWebhooks, showWebhooks, wireWebhooks, redrawWebhooks } from "./operator-webhooks.js";

let token = null;
let generation = 0;
/** The figures last drawn and their window, to draw them again in another language. */
let drawn = null;

// The series of the charts; `label` is a catalogue key.
const METHODS = [
  { key: "password", label: "charts.methodPassword", cls: "s-password" },
  { key: "passkey", label: "charts.methodPasskey", cls: "s-passkey" },
  { key: "recovery", label: "charts.methodRecovery", cls: "s-recovery" },
  { key: "email", label: "charts.methodEmail", cls: "s-email" },
];
const MODES = [
  { key: "modal", label: "charts.modeModal", cls: "s-modal" },
  { key: "conditional", label: "charts.modeConditional", cls: "s-conditional" },
  { key: "signUp", label: "charts.modeSignUp", cls: "s-signup" },
];

/** The series with their labels in the page's language. */
const labelled = (series) => series.map((s) => ({ ...s, label: t(s.label) }));

function wire() {
  wireWebhooks(() => token);
  wireAccounts(() => token);
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("operator-token");
    const value = input.value.trim();
    if (!value) {
      say(t("operator.tokenMissing"), "error", { focus: false });
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
    ask(t("operator.forgotten"), "info");
  });
  $("show-tables").addEventListener("click", (e) => {
    const shown = document.documentElement.dataset.tables !== "shown";
    setState("tables", shown ? "shown" : "hidden");
    e.currentTarget.setAttribute("aria-pressed", String(shown));
    e.currentTarget.dataset.i18n = shown ? "operator.chartsOnly" : "operator.showTables";
    e.currentTarget.textContent = t(e.currentTarget.dataset.i18n);
  });
  onLanguageChange(() => {
    translateMessages("accounts-status", "accounts-alert", "account-none", "webhook-secret-label");
    if (drawn) render(drawn.data, drawn.window);
    redrawAccounts();
    redrawWebhooks();
  });
}

/** Back to the token form: the token is dropped, the figures hidden. */
function ask(message, kind) {
  token = null;
  generation++;
  drawn = null;
  $("figures").hidden = true;
  hideAccounts();
  hideWebhooks();
  $("operator-controls").hidden = true;
  $("token-card").hidden = false;
  setState("operator", kind === "error" ? "wrong-token" : "asking");
  say(message, kind, { focus: false });
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
      ask(t("operator.wrongToken"), "error");
    } else if (e.status === 404) {
      ask(t("operator.off"), "error");
      setState("operator", "failed");
    } else {
      setState("operator", "failed");
      say(e.status === 0 ? t("operator.unreachable") : t("operator.loadFailed"), "error");
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
  drawn = { data, window };
  const days = data.days || [];
  const noSignIns = sum(days, signIns) === 0;
  setState("empty", String(noSignIns));
  $("generated-at").textContent = t("operator.generatedAt", { days: formatNumber(window), time: formatTime(data.generatedAt) });
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
    { key: "passwordOnly", label: t("stage.passwordOnly"), cls: "s-password", value: accounts.passwordOnly },
    { key: "passwordAndPasskey", label: t("stage.both"), cls: "s-both", value: accounts.passwordAndPasskey },
    { key: "passkeyOnly", label: t("stage.passkeyOnly"), cls: "s-passkey", value: accounts.passkeyOnly },
  ];
  const share = (n) => (total > 0 ? t("charts.withShare", { share: charts.formatShare(n / total) }) : "");
  const numbers = charts.figures([
    { key: "accounts.total", label: t("charts.accounts"), value: total, text: charts.formatCount(total) },
    ...items.map((i) => ({
      key: `accounts.${i.key}`, label: i.label, value: i.value, text: charts.formatCount(i.value) + share(i.value),
    })),
    {
      key: "accounts.emailVerified", label: t("charts.emailVerified"), value: accounts.emailVerified,
      text: charts.formatCount(accounts.emailVerified) + share(accounts.emailVerified),
    },
  ]);
  const rows = items.map((i) => [
    i.label, charts.formatCount(i.value), total > 0 ? charts.formatShare(i.value / total) : "—",
  ]);
  const tableView = charts.table(
    t("charts.stagesTable"), [t("charts.stage"), t("charts.accounts"), t("charts.share")], rows);
  if (total === 0) return [charts.empty(t("charts.noAccounts")), numbers, tableView];
  return [charts.horizontalBars(t("charts.stagesHeading"), items), numbers, tableView];
}

function signInsByMethod(days, noSignIns) {
  const series = labelled(METHODS).map((m) => ({ ...m, value: (d) => d.signIns[m.key] || 0 }));
  const total = sum(days, signIns);
  const numbers = charts.figures([
    { key: "signIns.total", label: t("charts.signIns"), value: total, text: charts.formatCount(total) },
    ...series.map((s) => {
      const n = sum(days, s.value);
      return { key: `signIns.${s.key}`, label: s.label, value: n, text: charts.formatCount(n) };
    }),
  ]);
  const tableView = charts.table(
    t("charts.signInsTable"), [t("charts.day"), ...series.map((s) => s.label), t("charts.all")],
    days.map((d) => [
      formatDate(d.date), ...series.map((s) => charts.formatCount(s.value(d))), charts.formatCount(signIns(d)),
    ]));
  if (noSignIns) return [charts.empty(t("charts.noSignInsWindow")), numbers];
  return [charts.stackedBars(t("charts.signInsHeading"), days, series), charts.legend(series), numbers, tableView];
}

function passkeyShare(days, noSignIns) {
  const share = (d) => (signIns(d) > 0 ? (d.signIns.passkey || 0) / signIns(d) : null);
  const total = sum(days, signIns);
  const passkey = sum(days, (d) => d.signIns.passkey || 0);
  const overall = total > 0 ? passkey / total : 0;
  const withData = days.filter((d) => share(d) !== null);
  const last = withData.length ? withData[withData.length - 1] : null;
  const numbers = charts.figures([
    { key: "share.window", label: t("charts.shareWindow"), value: overall, text: charts.formatShare(overall) },
    {
      key: "share.lastDay",
      label: last ? t("charts.shareLastDayOn", { day: formatDate(last.date) }) : t("charts.shareLastDay"),
      value: last ? share(last) : 0, text: last ? charts.formatShare(share(last)) : "—",
    },
  ]);
  if (noSignIns) return [charts.empty(t("charts.noShare")), numbers];
  const tableView = charts.table(
    t("charts.shareTable"), [t("charts.day"), t("charts.passkeySignIns"), t("charts.allSignIns"), t("charts.share")],
    days.map((d) => [
      formatDate(d.date), charts.formatCount(d.signIns.passkey || 0), charts.formatCount(signIns(d)),
      share(d) === null ? t("charts.noSignInsThatDay") : charts.formatShare(share(d)),
    ]));
  return [charts.shareLine(t("charts.shareHeading"), days, share), numbers, tableView];
}

function passkeysAdded(days) {
  const series = labelled(MODES).map((m) => ({ ...m, value: (d) => d.passkeysAdded[m.key] || 0 }));
  const total = sum(days, (d) => series.reduce((n, s) => n + s.value(d), 0));
  const numbers = charts.figures([
    { key: "added.total", label: t("charts.passkeysAdded"), value: total, text: charts.formatCount(total) },
    ...series.map((s) => {
      const n = sum(days, s.value);
      return { key: `added.${s.key}`, label: s.label, value: n, text: charts.formatCount(n) };
    }),
  ]);
  if (total === 0) return [charts.empty(t("charts.noPasskeysAdded")), numbers];
  const tableView = charts.table(
    t("charts.addedTable"), [t("charts.day"), ...series.map((s) => s.label)],
    days.map((d) => [formatDate(d.date), ...series.map((s) => charts.formatCount(s.value(d)))]));
  return [charts.stackedBars(t("charts.addedHeading"), days, series), charts.legend(series), numbers, tableView];
}

function upgrade(figures, noSignIns) {
  const numbers = charts.figures([
    {
      key: "upgrade.passwordSignIns", label: t("charts.upgradeSignIns"), value: figures.passwordSignIns,
      text: charts.formatCount(figures.passwordSignIns),
    },
    {
      key: "upgrade.followedByPasskey", label: t("charts.upgradeFollowed"), value: figures.followedByPasskey,
      text: charts.formatCount(figures.followedByPasskey),
    },
    {
      key: "upgrade.rate", label: t("charts.upgradeHeading"), value: figures.rate,
      text: charts.formatShare(figures.rate),
    },
  ]);
  if (figures.passwordSignIns === 0) {
    return [charts.empty(noSignIns ? t("charts.noSignIns") : t("charts.noUpgradeSignIns")), numbers];
  }
  const tableView = charts.table(
    t("charts.upgradeTable"), [t("charts.figure"), t("charts.value")],
    [
      [t("charts.upgradeSignIns"), charts.formatCount(figures.passwordSignIns)],
      [t("charts.upgradeOfThose"), charts.formatCount(figures.followedByPasskey)],
      [t("charts.upgradeHeading"), charts.formatShare(figures.rate)],
    ]);
  return [charts.meter(t("charts.upgradeHeading"), figures.rate), numbers, tableView];
}

setState("tables", "hidden");
startLanguage();
wire();
$("operator-token").focus();
