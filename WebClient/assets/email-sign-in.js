// (v3) Signing in by email, in the signed-out view: "Email me a code" beside the recovery-code
// sign-in, then the code → a short session (method email) that offers to add a passkey at once.
// A sign-up answered email-taken offers the same ("Is this your address?"): that is how the
// owner of an address takes back an account someone else created with it.

import { api, ApiError } from "./api.js";
import { messageForCode, messageForRateLimit } from "./messages.js";
import { $, say, setState, whileBusy, fields, valid } from "./ui.js";
import { t } from "./language.js";

/** The address the last code was requested for. */
let requestedFor = "";

export function wire(ctx) {
  $("email-sign-in-request-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (valid(e.currentTarget)) requestCode(fields(e.currentTarget).email, $("email-sign-in-send"));
  });
  $("email-sign-in-resend").addEventListener("click", (e) => requestCode(requestedFor, e.currentTarget));
  $("email-sign-in-form").addEventListener("submit", (e) => signIn(ctx, e));
  $("email-taken-get-code").addEventListener("click", (e) => {
    const email = $("email-taken-address").textContent;
    hideTakenOffer();
    $("email-sign-in").open = true;
    $("email-sign-in-email").value = email;
    $("email-sign-in").scrollIntoView({ block: "center" });
    requestCode(email, e.currentTarget);
  });
}

/** After a sign-up answered email-taken: the offer to prove the address and take the account. */
export function offerForTakenEmail(email) {
  $("email-taken-address").textContent = email;
  $("email-taken-offer").hidden = false;
  $("email-taken-get-code").focus();
}

export function hideTakenOffer() {
  $("email-taken-offer").hidden = true;
}

/** Back to the first step (on sign-out, and after a sign-in). */
export function reset() {
  requestedFor = "";
  $("email-sign-in-request-form").hidden = false;
  $("email-sign-in-form").hidden = true;
  $("email-sign-in-form").reset();
}

async function requestCode(email, button) {
  if (!email) return;
  let sent = false;
  await whileBusy(button, async () => {
    try {
      await api("POST", "/v1/recovery/email", { body: { email } });
      sent = true;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === "rate-limited") say(messageForRateLimit(e, t("emailSignIn.tooManyRequests")), "error");
      else if (e.code === "invalid-request") say(t("emailSignIn.notAnAddress"), "error");
      else say(messageForCode(e.code, e.status), "error");
    }
  });
  if (!sent) return;
  requestedFor = email;
  $("email-sign-in-request-form").hidden = true;
  $("email-sign-in-form").hidden = false;
  setState("emailCode", "sent");
  // The same words for every address: the page does not know (nor may it tell) whether an account has it.
  say(t("emailSignIn.sent", { email }), "info");
  $("email-sign-in-code").focus();
}

async function signIn(ctx, event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const code = fields(form).code.replace(/\s/g, "");
  const email = requestedFor;
  const refused = await whileBusy($("email-sign-in-submit"), async () => {
    try {
      const session = await api("POST", "/v1/recovery/email/sessions", { body: { email, code } });
      reset();
      $("email-sign-in").open = false;
      await ctx.signIn(session);
      say(t("emailSignIn.signedIn"), "success");
      $("recovery-add-passkey").focus();
      return false;
    } catch (e) {
      if (!(e instanceof ApiError)) {
        ctx.fail(e);
        return false;
      }
      if (e.code === "invalid-credentials") {
        say(t("code.invalid-code"), "error");
      } else if (e.code === "rate-limited") {
        say(messageForRateLimit(e, t("common.tooManyWrongCodes")), "error");
      } else {
        say(messageForCode(e.code, e.status), "error");
      }
      return true;
    }
  });
  if (refused) $("email-sign-in-code").select();
}
