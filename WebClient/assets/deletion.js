// The "Delete account" section: behind the confirm dialog, DELETE /v1/account (it needs a recent
// sign-in), then the password manager is told that the account's passkeys are gone
// (signalUnknownCredential, where supported) and the page is signed out.

import { $, say, whileBusy, confirmDialog } from "./ui.js";
import { t, formatNumber } from "./language.js";
import * as webauthn from "./webauthn.js";

let account = null;

export function wire(ctx) {
  $("delete-account").addEventListener("click", (e) => deleteAccount(ctx, e.currentTarget));
}

export function render(ctx, value) {
  account = value;
}

async function deleteAccount(ctx, button) {
  const passkeys = account ? account.passkeys.map((p) => p.credentialID) : [];
  const email = account ? account.email : t("delete.thisAccount");
  const text = t("delete.confirmText", { email, count: formatNumber(passkeys.length) });
  const confirmed = await confirmDialog(t("delete.title"), text, t("delete.heading"));
  if (!confirmed) return;
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", "/v1/account");
    } catch (e) {
      ctx.fail(e);
      return;
    }
    // Best effort, never an error: lets the password manager hide or remove these passkeys.
    await Promise.all(passkeys.map((id) => webauthn.signalUnknownCredential(ctx.rpId, id)));
    ctx.endSession();
    say(t("delete.done"), "info");
  });
}
