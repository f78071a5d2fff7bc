// The password section: whether the account still has one, and removing it (stage ③ of the
// migration) once the server allows it. A refusal is shown next to the button, in words. (v3)
// Setting one on a passkey-only account, or replacing it (PUT /v1/account/password).

import { ApiError } from "./api.js";
import { messageForCode } from "./messages.js";
import { $, say, whileBusy, confirmDialog, valid } from "./ui.js";

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
  $("set-password").textContent = account.hasPassword ? "Change password" : "Set a password";
  $("set-password-username").value = account.email; // for password managers saving the new one
  showSetForm(false);
  if (!account.hasPassword) {
    $("password-state").textContent = "This account has no password: it signs in with passkeys only.";
    $("remove-password").hidden = true;
    return;
  }
  const used = account.passkeys.some((p) => p.lastUsedAt);
  $("password-state").textContent =
    account.passkeys.length === 0
      ? "This account signs in with a password. Add a passkey first; then you can remove the password."
      : used
        ? account.recoveryCodesRemaining > 0 || account.emailVerified
          ? "This account has a password too. You may remove it and sign in with passkeys only."
          : "This account has a password too. Create recovery codes first; then you can remove it."
        : "This account has a password too. It can go once a passkey has signed you in.";
  $("remove-password").hidden = false;
}

async function removePassword(ctx, button) {
  const confirmed = await confirmDialog(
    "Remove your password?",
    "You will sign in with your passkeys only. Make sure you can still use one of them.",
    "Remove password",
  );
  if (!confirmed) return;
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", "/v1/account/password");
      say("Your password was removed. You sign in with passkeys from now on.", "success");
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
      say("The password was not removed: the reason is shown under the button.", "error");
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
  const had = $("set-password").textContent === "Change password";
  await whileBusy($("set-password-submit"), async () => {
    try {
      await ctx.call("PUT", "/v1/account/password", { password });
      await ctx.refresh();
      say(
        had
          ? "Your password was changed. Other devices signed in with the old one are signed out."
          : "Your password was set. You can sign in with it as well as with your passkeys.",
        "success",
      );
      $("set-password").focus();
    } catch (e) {
      ctx.fail(e);
    }
  });
}
