// (v3) The account's email address in the signed-in view: the "verify your address" banner
// (code entry, "Send a new code") while it is unverified, and changing it (new address → code
// → confirmed). Nothing here calls the server by itself: with mail off the first click says so.

import { ApiError } from "./api.js";
import { messageForCode, messageForRateLimit } from "./messages.js";
import { $, say, setState, whileBusy, fields, valid } from "./ui.js";
import { t } from "./language.js";

/** The address a change waits for (its code went there), or null. */
let pendingEmail = null;

/** Set once the server said it sends no mail: the banner then stays away for this tab. */
const MAIL_OFF = "passkey-server.mailOff";

export function wire(ctx) {
  $("verify-form").addEventListener("submit", (e) => confirmVerification(ctx, e));
  $("verify-resend").addEventListener("click", (e) => requestVerification(ctx, e.currentTarget));
  $("change-email-form").addEventListener("submit", (e) => changeEmail(ctx, e));
  $("change-email-code-form").addEventListener("submit", (e) => confirmChange(ctx, e));
  $("change-email-cancel").addEventListener("click", () => {
    showChangeStep(null);
    $("change-email-new").focus();
  });
}

export function render(ctx, account) {
  $("verify-address").textContent = account.email;
  $("verify-banner").hidden = Boolean(account.emailVerified) || sessionStorage.getItem(MAIL_OFF) === "1";
  setState("email", account.emailVerified ? "verified" : "unverified");
}

export function reset() {
  showChangeStep(null);
  $("change-email-form").reset();
  $("verify-form").reset();
  note("");
}

/** The line under the banner's buttons (the reason a code could not be sent or used). */
function note(text) {
  $("verify-state").textContent = text;
  $("verify-state").hidden = !text;
}

/** A failure of an email call, in words: limits with their wait, mail off, everything else. */
function explain(ctx, error, { limit = t("email.tooManySent"), codeField = null } = {}) {
  if (!(error instanceof ApiError)) {
    ctx.fail(error);
    return "";
  }
  let text;
  if (error.code === "rate-limited") text = messageForRateLimit(error, limit);
  else if (["mail-unavailable", "invalid-code", "email-already-verified", "email-taken"].includes(error.code)) {
    text = messageForCode(error.code, error.status);
  } else {
    ctx.fail(error);
    return "";
  }
  say(text, "error");
  if (error.code === "mail-unavailable") {
    sessionStorage.setItem(MAIL_OFF, "1");
    $("verify-banner").hidden = true;
  }
  if (codeField && error.code === "invalid-code") codeField.select();
  return text;
}

async function requestVerification(ctx, button) {
  await whileBusy(button, async () => {
    try {
      await ctx.call("POST", "/v1/account/email/verification");
      note("");
      say(t("email.newCodeSent", { email: $("verify-address").textContent }), "success");
      setState("emailCode", "sent");
    } catch (e) {
      if (e instanceof ApiError && e.code === "email-already-verified") {
        await ctx.refresh();
        say(messageForCode(e.code), "info");
        return;
      }
      note(explain(ctx, e));
    }
  });
  if (!$("verify-banner").hidden) $("verify-code").focus();
}

async function confirmVerification(ctx, event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const code = fields(form).code.replace(/\s/g, "");
  await whileBusy($("verify-submit"), async () => {
    try {
      await ctx.call("POST", "/v1/account/email/verification/confirm", { code });
      form.reset();
      note("");
      await ctx.refresh();
      say(t("email.verifiedDone"), "success");
      $("account-heading").focus();
    } catch (e) {
      note(explain(ctx, e, { limit: t("common.tooManyWrongCodes"), codeField: $("verify-code") }));
    }
  });
}

/** Step 1 (null) shows the new-address form; step 2 (an address) the code form for it. */
function showChangeStep(address) {
  pendingEmail = address;
  $("change-email-form").hidden = Boolean(address);
  $("change-email-code-form").hidden = !address;
  $("change-email-pending").textContent = address || "";
  if (!address) $("change-email-code-form").reset();
}

async function changeEmail(ctx, event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const { email } = fields(form);
  let sent = false;
  await whileBusy($("change-email-submit"), async () => {
    try {
      await ctx.call("PUT", "/v1/account/email", { email });
      showChangeStep(email);
      say(t("email.changeSent", { email }), "success");
      sent = true;
    } catch (e) {
      explain(ctx, e);
    }
  });
  if (sent) $("change-email-code").focus();
}

async function confirmChange(ctx, event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const code = fields(form).code.replace(/\s/g, "");
  await whileBusy($("change-email-confirm"), async () => {
    try {
      const account = await ctx.call("POST", "/v1/account/email/confirm", { code });
      $("change-email-form").reset();
      showChangeStep(null);
      await ctx.refresh();
      say(t("email.changed", { email: account.email }), "success");
    } catch (e) {
      explain(ctx, e, { limit: t("common.tooManyWrongCodes"), codeField: $("change-email-code") });
      if (e instanceof ApiError && e.code === "email-taken") showChangeStep(null);
    }
  });
  if (pendingEmail === null) $("account-email").scrollIntoView({ block: "center" });
}
