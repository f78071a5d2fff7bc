// (v4, issue 40) The pages' language, English or Japanese, and everything that depends on it:
// the sentences (catalogue-en.js, catalogue-ja.js: one key, one sentence, in each language), the
// HTML's own words (elements marked data-i18n="key", attributes data-i18n-attr="name:key"), and
// dates, times and numbers (Intl, in the chosen locale).
// The choice: the 日本語 / English switch, remembered in localStorage under LANGUAGE_KEY (the only
// thing this page stores there; the operator page's token never is: it lives in operator.js's
// memory), else the browser's own order (navigator.languages), else English. <html lang> follows.
// The account's mail language is not this: the server keeps what the sign-up's Accept-Language
// said (api.js sends the chosen language), and a later switch here does not change it.

import en from "./catalogue-en.js";
import ja from "./catalogue-ja.js";

const CATALOGUES = { en, ja };
const LANGUAGE_KEY = "passkey-server.language";
const known = (language) => typeof language === "string" && Object.hasOwn(CATALOGUES, language);

let current = initialLanguage();
const listeners = [];
/** The sentences t() made lately (text → [key, params]), so that a message shown can be said again. */
const made = new Map();
const MADE_KEPT = 300;

/** The remembered choice, else the first of the browser's languages that has a catalogue. */
function initialLanguage() {
  const stored = readStored();
  if (stored) return stored;
  for (const tag of navigator.languages || [navigator.language]) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (known(primary)) return primary;
  }
  return "en";
}

/** localStorage may be off (private modes, policies): then the choice lasts for this page only. */
function readStored() {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return known(value) ? value : null;
  } catch {
    return null;
  }
}

function store(language) {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Not remembered: the page still switches.
  }
}

/** The Intl locale: "ja", or the browser's own English (en-GB, en-US, …) when English is chosen. */
export function locale() {
  if (current !== "en") return current;
  const english = (navigator.languages || []).find((tag) => /^en(-|$)/i.test(tag));
  return english || "en";
}

/** What api.js sends as Accept-Language: the chosen language first (a sign-up keeps it for mails). */
export function acceptLanguage() {
  return current === "ja" ? "ja, en;q=0.5" : "en";
}

/**
 * The sentence for `key` in the chosen language, its {name} placeholders filled from `params`.
 * A key missing from the catalogues is a bug of this page: said in the console (the browser test
 * fails on it) and shown as the key.
 */
export function t(key, params = {}) {
  const text = CATALOGUES[current][key] ?? en[key];
  if (text === undefined) {
    console.error(`no catalogue entry for ${key}`);
    return key;
  }
  const result = text.replace(/\{([A-Za-z]+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  made.delete(result);
  made.set(result, [key, params]);
  if (made.size > MADE_KEPT) made.delete(made.keys().next().value);
  return result;
}

/**
 * A sentence t() made, in the language chosen now (its parameters too, when t() made them);
 * any other text as it is. For the messages on the page when the language changes.
 */
export function retranslate(text) {
  const entry = made.get(text);
  if (!entry) return text;
  const [key, params] = entry;
  const fresh = {};
  for (const [name, value] of Object.entries(params)) {
    fresh[name] = typeof value === "string" ? retranslate(value) : value;
  }
  return t(key, fresh);
}

/** Whether the catalogue has `key` (for keys made from the server's codes). */
export function has(key) {
  return Object.hasOwn(en, key);
}

// ---- dates, times and numbers, in the chosen locale ----

/** A timestamp for people; "never" for null. */
export function formatTime(iso) {
  if (!iso) return t("common.never");
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** "Dec 2, 2025" / "2025/12/02" for a YYYY-MM-DD day (UTC, as the operator's figures are). */
export function formatDate(day) {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeZone: "UTC" }).format(date);
}

/** "2 Dec" / "12月2日" for a YYYY-MM-DD day (UTC, as the operator's figures are). */
export function formatDay(day) {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale(), { day: "numeric", month: "short", timeZone: "UTC" }).format(date);
}

/** A whole number with the locale's grouping. */
export function formatNumber(n) {
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: 0 }).format(n);
}

/** A share (0…1) as a percentage, at most one decimal. */
export function formatPercent(x) {
  return new Intl.NumberFormat(locale(), { style: "percent", maximumFractionDigits: 1 }).format(x);
}

/** "in 3 minutes" / "3 分後" (a wait, for rate limits). */
export function formatWait(seconds) {
  const relative = new Intl.RelativeTimeFormat(locale(), { numeric: "always" });
  return seconds < 60 ? relative.format(seconds, "second") : relative.format(Math.ceil(seconds / 60), "minute");
}

// ---- the HTML's own words ----

/**
 * Puts the chosen language's words into every element marked data-i18n (and into <template>
 * contents), and into the attributes named by data-i18n-attr ("aria-label:key; title:key").
 * An element with children marked data-slot="name" keeps those children (their ids, what the
 * scripts put in them) where the sentence says {name}.
 */
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) fill(element, t(element.dataset.i18n));
  for (const element of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of element.dataset.i18nAttr.split(";")) {
      const [name, key] = pair.split(":").map((part) => part.trim());
      if (name && key) element.setAttribute(name, t(key));
    }
  }
  for (const template of root.querySelectorAll("template")) translatePage(template.content);
  if (root === document) {
    document.documentElement.lang = current;
    for (const button of document.querySelectorAll("[data-language]")) {
      button.setAttribute("aria-pressed", String(button.dataset.language === current));
    }
  }
}

function fill(element, text) {
  const slots = new Map([...element.children].filter((c) => c.dataset.slot).map((c) => [c.dataset.slot, c]));
  if (slots.size === 0) {
    element.textContent = text;
    return;
  }
  const parts = text.split(/(\{[A-Za-z]+\})/).filter(Boolean);
  element.replaceChildren(...parts.map((part) => slots.get(part.slice(1, -1)) || part));
}

// ---- the switch ----

/** Switches the page to `next`, remembers it, translates the page and tells the listeners. */
export function setLanguage(next) {
  if (!known(next) || next === current) return;
  current = next;
  store(next);
  translatePage();
  for (const listener of listeners) listener(next);
}

/** `listener(language)` runs after every switch: it renders again what scripts wrote. */
export function onLanguageChange(listener) {
  listeners.push(listener);
}

/** Translates the page once at start and wires the 日本語 / English buttons (data-language). */
export function startLanguage() {
  translatePage();
  for (const button of document.querySelectorAll("[data-language]")) {
    button.addEventListener("click", () => setLanguage(button.dataset.language));
  }
}
