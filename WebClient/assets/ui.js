// Small DOM helpers: element look-up, the live message region, busy buttons, views.

/** The element with this id (throws when the page and the script disagree). */
export function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing element #${id}`);
  return element;
}

/**
 * Shows a message in the aria-live region. `kind` is "info", "success" or "error".
 * `action` ({label, run}) adds a button, e.g. "Sign in again".
 */
export function say(text, kind = "info", action = null) {
  const region = $("message");
  region.replaceChildren();
  region.dataset.kind = kind;
  if (!text) {
    region.hidden = true;
    return;
  }
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
  region.hidden = false;
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

/** Shows one view (`signed-out` or `account`), hides the others, moves focus to its heading. */
export function showView(name, { focus = true } = {}) {
  for (const view of document.querySelectorAll("[data-screen]")) view.hidden = view.dataset.screen !== name;
  setState("view", name);
  if (focus) {
    const heading = document.querySelector(`[data-screen="${name}"] h2`);
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

/** Checks the form's own constraints; says what is missing and focuses it. */
export function valid(form) {
  const invalid = [...form.elements].find((e) => e.willValidate && !e.checkValidity());
  if (!invalid) return true;
  const label = form.querySelector(`label[for="${invalid.id}"]`);
  say(`${label ? label.textContent : "A field"}: ${invalid.validationMessage}`, "error");
  invalid.focus();
  return false;
}
