// The password section: whether the account still has one, and removing it (stage ③ of the
// migration) once the server allows it. A refusal is shown next to the button, in words. (v3)
// Setting one on a passkey-only account, or replacing it (PUT /v1/account/password).

import { ApiError } from "./api.js";
import { messageForCode } from "./messages.js";
import { $, say, whileBusy, confirmDialog, valid } from "./ui.js";
import { t } from "./language.js";

/** Whether the account on the page has a password (the button says "Change" then). */
let hasPassword = false;

export function wire(ctx) {
  $("remove-password").addEventListener("click", (e) => removePassword(ctx, e.currentTarget));
  $("set-password").addEventListener("click", () => showSetForm(true));
  $("set-password-cancel").addEventListener("click", () => {
    showSetForm(false);
    $("set-password").focus();
  });
  $("set-password-form").addEventListener("submit", (e) => setPassword(ctx, e));
  $("password-why-action").addEventListener("click", () => {
    $("recovery-heading").scrollIntoView({ block: "start" });
    $("recovery-heading").focus();
  });
}

export function render(ctx, account) {
  const why = $("password-why");
  why.hidden = true;
  why.textContent = "";
  $("password-why-action").hidden = true;
  hasPassword = Boolean(account.hasPassword);
  $("set-password").textContent = hasPassword ? t("password.change") : t("password.set");
  $("set-password-username").value = account.email; // for password managers saving the new one
  showSetForm(false);
  if (!account.hasPassword) {
    $("password-state").textContent = t("password.none");
    $("remove-password").hidden = true;
    return;
  }
  const used = account.passkeys.some((p) => p.lastUsedAt);
  $("password-state").textContent = t(
    account.passkeys.length === 0
      ? "password.onlyPassword"
      : used
        ? account.recoveryCodesRemaining > 0 || account.emailVerified
          ? "password.removable"
          : "password.needsRecovery"
        : "password.needsPasskeyUse",
  );
  $("remove-password").hidden = false;
}

async function removePassword(ctx, button) {
  const confirmed = await confirmDialog(t("password.removeTitle"), t("password.removeText"), t("password.remove"));
  if (!confirmed) return;
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", "/v1/account/password");
      say(t("password.removed"), "success");
      await ctx.refresh();
    } catch (e) {
      const refusal = e instanceof ApiError && ["passkey-not-yet-used", "recovery-not-set-up"].includes(e.code);
      if (!refusal) {
        ctx.fail(e);
        return;
      }
      const why = $("password-why");
      why.textContent = messageForCode(e.code, e.status);
      why.hidden = false;
      $("password-why-action").hidden = e.code !== "recovery-not-set-up";
      say(t("password.notRemoved"), "error", { focus: false });
      why.focus();
    }
  });
}

function showSetForm(shown) {
  $("set-password-form").hidden = !shown;
  $("set-password").hidden = shown;
  if (!shown) $("set-password-form").reset();
  else $("set-password-input").focus();
}

async function setPassword(ctx, event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const password = $("set-password-input").value; // never trimmed
  const had = hasPassword;
  await whileBusy($("set-password-submit"), async () => {
    try {
      await ctx.call("PUT", "/v1/account/password", { password });
      await ctx.refresh();
      say(had ? t("password.changed") : t("password.wasSet"), "success");
      $("set-password").focus();
    } catch (e) {
      ctx.fail(e);
    }
  });
}
