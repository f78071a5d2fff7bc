// The passkeys section: the list (name, authenticator, created, last used), rename, delete, the
// "Add a passkey" button (a modal create; it needs a recent sign-in), and Automatic Passkey
// Upgrade (a conditional create right after a password sign-in).

import { describeAuthenticator, passkeyDates } from "./messages.js";
import { t } from "./language.js";
import { $, say, setState, whileBusy, confirmDialog } from "./ui.js";
import * as webauthn from "./webauthn.js";

let account = null;

export function wire(ctx) {
  $("add-passkey").addEventListener("click", (e) => addPasskey(ctx, e.currentTarget));
}

export function render(ctx, value) {
  account = value;
  const list = $("passkey-list");
  list.replaceChildren(...account.passkeys.map((passkey) => item(ctx, passkey)));
  $("passkeys-empty").hidden = account.passkeys.length > 0;
}

function item(ctx, passkey) {
  const node = $("passkey-item").content.firstElementChild.cloneNode(true);
  node.dataset.credentialId = passkey.credentialID;
  node.querySelector(".passkey-name").textContent = passkey.name;
  node.querySelector(".passkey-meta").textContent = describeAuthenticator(passkey);
  node.querySelector(".passkey-dates").textContent = passkeyDates(passkey);

  const form = node.querySelector(".rename-form");
  const input = node.querySelector(".rename-input");
  const inputId = `rename-${passkey.credentialID}`;
  input.id = inputId;
  const label = node.querySelector(".rename-label");
  label.htmlFor = inputId;
  label.textContent = t("passkeys.newName", { name: passkey.name });
  const renameButton = node.querySelector(".rename");
  const deleteButton = node.querySelector(".delete");
  renameButton.setAttribute("aria-label", t("passkeys.renameLabel", { name: passkey.name }));
  deleteButton.setAttribute("aria-label", t("passkeys.deleteLabel", { name: passkey.name }));

  renameButton.addEventListener("click", () => {
    form.hidden = false;
    renameButton.hidden = true;
    input.value = passkey.name;
    input.focus();
    input.select();
  });
  node.querySelector(".rename-cancel").addEventListener("click", () => {
    form.hidden = true;
    renameButton.hidden = false;
    renameButton.focus();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    rename(ctx, passkey, input.value.trim(), node.querySelector(".rename-save"));
  });
  deleteButton.addEventListener("click", () => remove(ctx, passkey, deleteButton));
  return node;
}

async function rename(ctx, passkey, name, button) {
  if (!name) {
    say(t("passkeys.nameMissing"), "error");
    return;
  }
  await whileBusy(button, async () => {
    try {
      await ctx.call("PATCH", `/v1/passkeys/${encodeURIComponent(passkey.credentialID)}`, { name });
      say(t("passkeys.renamed", { name }), "success");
      await ctx.refresh();
      focusItem(passkey.credentialID, ".rename");
    } catch (e) {
      ctx.fail(e);
      if (e.code === "not-found") await ctx.refresh();
    }
  });
}

async function remove(ctx, passkey, button) {
  const confirmed = await confirmDialog(
    t("passkeys.deleteTitle"),
    t("passkeys.deleteText", { name: passkey.name }),
    t("passkeys.deleteConfirm"),
  );
  if (!confirmed) return;
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", `/v1/passkeys/${encodeURIComponent(passkey.credentialID)}`);
      const remaining = account.passkeys.filter((p) => p.credentialID !== passkey.credentialID);
      // Lets the password manager hide or remove the deleted passkey.
      webauthn.signalAllAcceptedCredentials(
        ctx.rpId,
        webauthn.userHandle(account.accountID),
        remaining.map((p) => p.credentialID),
      );
      say(t("passkeys.deleted", { name: passkey.name }), "success");
      await ctx.refresh();
      $("passkeys-heading").focus();
    } catch (e) {
      ctx.fail(e);
      if (e.code === "not-found") await ctx.refresh();
    }
  });
}

/** A modal create (also the recovery offer's button); resolves true when a passkey was added. */
export async function addPasskey(ctx, button) {
  return whileBusy(button, async () => {
    try {
      const options = await ctx.call("POST", "/v1/passkeys/registrations", { mode: "modal" });
      ctx.rememberRelyingParty(options);
      const credential = await webauthn.createCredential(options.publicKey);
      await ctx.call("POST", "/v1/passkeys/registrations/finish", { challengeID: options.challengeID, credential });
      ctx.markPasskeyAdded();
      say(t("passkeys.added"), "success");
      await ctx.refresh();
      return true;
    } catch (e) {
      ctx.fail(e, "create");
      return false;
    }
  });
}

/**
 * Automatic Passkey Upgrade right after a password sign-in: a conditional create that the
 * browser completes silently when its password manager allows it. Any failure is silent; the
 * user stays signed in and has the "Add a passkey" button.
 */
export async function tryAutomaticUpgrade(ctx) {
  if (!(await webauthn.conditionalCreateAvailable())) {
    setState("upgrade", "unavailable");
    return;
  }
  setState("upgrade", "pending");
  try {
    const options = await ctx.call("POST", "/v1/passkeys/registrations", { mode: "conditional" });
    ctx.rememberRelyingParty(options);
    const credential = await webauthn.createCredential(options.publicKey, "conditional");
    await ctx.call("POST", "/v1/passkeys/registrations/finish", { challengeID: options.challengeID, credential });
    setState("upgrade", "done");
    say(t("passkeys.upgraded"), "success");
    await ctx.refresh();
  } catch (e) {
    setState("upgrade", e && e.name === "AbortError" ? "stopped" : "failed");
  }
}

function focusItem(credentialID, selector) {
  for (const node of $("passkey-list").children) {
    if (node.dataset.credentialId === credentialID) node.querySelector(selector).focus();
  }
}

/** Without passkey support: a plain notice, and every control marked data-needs-passkeys disabled. */
export function applySupport() {
  const notice = $("support-notice");
  if (!webauthn.support.supported) {
    notice.textContent = webauthn.support.secureContext ? t("passkeys.unsupported") : t("passkeys.insecure");
    notice.hidden = false;
    for (const element of document.querySelectorAll("[data-needs-passkeys]")) {
      const controls = element.elements ? [...element.elements] : [element];
      controls.forEach((c) => {
        c.disabled = true;
      });
    }
  }
  setState("passkeys", webauthn.support.supported ? "supported" : "unsupported");
  setState("json", webauthn.support.nativeJSON ? "native" : "fallback");
}
