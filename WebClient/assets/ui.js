// Small DOM helpers: element look-up, the live message regions, busy buttons, views.

import { t, retranslate, formatNumber } from "./language.js";

/** The element with this id (throws when the page and the script disagree). */
export function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing element #${id}`);
  return element;
}

/**
 * Shows a message, or clears it (empty `text`). `kind` is "info", "success" or "error": the first
 * two go to the polite status region, an error to the alert region (announced at once), which
 * also takes the focus unless `focus` is false (a field the caller focuses next is better still).
 * `action` ({label, run}) adds a button, e.g. "Sign in again".
 */
export function say(text, kind = "info", { action = null, focus = true } = {}) {
  const status = $("message-status");
  const alert = $("message-alert");
  status.replaceChildren();
  alert.replaceChildren();
  if (!text) return;
  const region = kind === "error" ? alert : status;
  region.dataset.kind = kind;
  const paragraph = document.createElement("p");
  paragraph.textContent = text;
  region.append(paragraph);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "message-action";
    button.textContent = action.label;
    button.addEventListener("click", action.run);
    region.append(button);
  }
  if (kind === "error" && focus) alert.focus();
}

/**
 * After a switch of language: the messages shown, and the elements named, in the new words (what
 * t() made; anything else stays as it is).
 */
export function translateMessages(...ids) {
  for (const id of ["message-status", "message-alert", ...ids]) {
    const element = $(id);
    const parts = element.children.length ? element.querySelectorAll("p, button") : [element];
    for (const part of parts) part.textContent = retranslate(part.textContent);
  }
}

/** Page state for people (the view) and for the browser test (data attributes on <html>). */
export function setState(name, value) {
  document.documentElement.dataset[name] = value;
}

let busyCount = 0;

/**
 * Runs `work` with `button` (and its form's controls) disabled and marked busy, so that nothing
 * is sent twice. Resolves to what `work` returns.
 */
export async function whileBusy(button, work) {
  const controls = button.form ? [...button.form.elements] : [button];
  const wasDisabled = controls.map((c) => c.disabled);
  controls.forEach((c) => {
    c.disabled = true;
  });
  button.setAttribute("aria-busy", "true");
  setState("busy", String(++busyCount));
  try {
    return await work();
  } finally {
    controls.forEach((c, i) => {
      c.disabled = wasDisabled[i];
    });
    button.removeAttribute("aria-busy");
    setState("busy", String(--busyCount));
  }
}

/** Shows one view (`signed-out` or `account`), hides the others, moves focus to its first shown heading. */
export function showView(name, { focus = true } = {}) {
  for (const view of document.querySelectorAll("[data-screen]")) view.hidden = view.dataset.screen !== name;
  setState("view", name);
  if (focus) {
    const headings = document.querySelectorAll(`[data-screen="${name}"] h2`);
    const heading = [...headings].find((h) => !h.closest("[hidden]"));
    if (heading) heading.focus();
  }
}

/** Asks for confirmation in a modal <dialog>; resolves true when confirmed. Focus returns after. */
export function confirmDialog(title, text, confirmLabel) {
  const dialog = $("confirm-dialog");
  const opener = document.activeElement;
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = confirmLabel;
  dialog.returnValue = "cancel";
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        if (opener && typeof opener.focus === "function") opener.focus();
        resolve(dialog.returnValue === "confirm");
      },
      { once: true },
    );
    dialog.showModal();
    $("confirm-cancel").focus();
  });
}

/** A form's named values, trimmed. */
export function fields(form) {
  const values = {};
  for (const [name, value] of new FormData(form)) values[name] = typeof value === "string" ? value.trim() : value;
  return values;
}

/** Checks the form's own constraints; says what is missing (in the page's language) and focuses it. */
export function valid(form) {
  const invalid = [...form.elements].find((e) => e.willValidate && !e.checkValidity());
  if (!invalid) return true;
  const label = form.querySelector(`label[for="${invalid.id}"]`);
  const field = label ? label.textContent : t("validation.aField");
  say(t("validation.problem", { field, problem: problem(invalid) }), "error", { focus: false });
  invalid.focus();
  return false;
}

/** Why a field is not valid, in words (the browser's own message is in the browser's language). */
function problem(field) {
  const v = field.validity;
  if (v.valueMissing) return t("validation.missing");
  if (v.typeMismatch && field.type === "email") return t("validation.email");
  if (v.typeMismatch && field.type === "url") return t("validation.url");
  if (v.tooShort) return t("validation.tooShort", { min: formatNumber(field.minLength) });
  if (v.tooLong) return t("validation.tooLong", { max: formatNumber(field.maxLength) });
  if (v.patternMismatch) return t("validation.pattern");
  return t("validation.invalid");
}
