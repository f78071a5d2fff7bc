// Recovery codes: the section in the account view (how many are left, a new set shown once with
// Copy and Download), the sign-in with a code in the signed-out view, and right after such a
// sign-in (or an email sign-in, email-sign-in.js) the prominent offer to add a passkey for this
// device.

import { api, ApiError } from "./api.js";
import { messageForCode } from "./messages.js";
import { t, formatTime, formatNumber } from "./language.js";
import { $, say, setState, whileBusy, confirmDialog, fields, valid } from "./ui.js";
import { addPasskey } from "./passkeys.js";

let downloadURL = null;
let shownSet = null; // the codes on the page (their text file follows the language), or null

export function wire(ctx) {
  $("create-recovery-codes").addEventListener("click", (e) => createCodes(ctx, e.currentTarget));
  $("copy-recovery-codes").addEventListener("click", copyCodes);
  $("recovery-codes-done").addEventListener("click", () => {
    hideCodes();
    say(t("recovery.hidden"), "info");
    $("create-recovery-codes").focus();
  });
  $("recovery-add-passkey").addEventListener("click", async (e) => {
    const added = await addPasskey(ctx, e.currentTarget);
    if (added) $("passkeys-heading").focus();
  });
  $("recovery-sign-in-form").addEventListener("submit", (e) => recoverySignIn(ctx, e));
}

export function render(ctx, account) {
  const remaining = account.recoveryCodesRemaining || 0;
  $("recovery-state").textContent = remaining === 0
    ? t("recovery.none")
    : t("recovery.remaining", { count: formatNumber(remaining), total: formatNumber(10) });
  $("create-recovery-codes").textContent = remaining === 0 ? t("recovery.create") : t("recovery.createNew");
  $("create-recovery-codes").dataset.remaining = String(remaining);
  // After a recovery sign-in: a passkey for this device first (once one was added here, the
  // offer goes away).
  // (An email sign-in is recovery too: the same offer, worded for it.)
  const method = ctx.session && ctx.session.method;
  const offer = (method === "recovery" || method === "email") && !ctx.session.passkeyAdded;
  $("recovery-offer-how").textContent = method === "email" ? t("method.email") : t("method.recovery");
  $("recovery-offer").hidden = !offer;
  if (shownSet) writeFile(shownSet); // rendered again after a switch of language
}

/** Hides the codes for good (also on sign-out): they exist only in this page's memory. */
export function hideCodes() {
  shownSet = null;
  $("recovery-code-list").replaceChildren();
  $("recovery-codes-text").value = "";
  $("recovery-codes-text").hidden = true;
  $("recovery-codes-text-label").hidden = true;
  $("recovery-codes").hidden = true;
  if (downloadURL) URL.revokeObjectURL(downloadURL);
  downloadURL = null;
  $("download-recovery-codes").href = "#";
  setState("codes", "hidden");
}

async function createCodes(ctx, button) {
  const remaining = Number(button.dataset.remaining || "0");
  if (remaining > 0) {
    const confirmed = await confirmDialog(
      t("recovery.replaceTitle"),
      t("recovery.replaceText", { count: formatNumber(remaining) }),
      t("recovery.createNew"),
    );
    if (!confirmed) return;
  }
  await whileBusy(button, async () => {
    try {
      const set = await ctx.call("POST", "/v1/account/recovery-codes");
      await ctx.refresh();
      showCodes(set);
      say(t("recovery.ready"), "success");
      $("recovery-codes-intro").focus();
    } catch (e) {
      ctx.fail(e);
    }
  });
}

function showCodes(set) {
  hideCodes();
  const items = set.codes.map((code) => {
    const li = document.createElement("li");
    li.textContent = code;
    return li;
  });
  $("recovery-code-list").replaceChildren(...items);
  shownSet = set;
  writeFile(set);
  $("recovery-codes").hidden = false;
  setState("codes", "shown");
}

/** The codes as text, in the text box and behind "Download" (a Blob URL, revoked when replaced). */
function writeFile(set) {
  const intro = t("recovery.fileIntro", {
    host: location.host,
    email: $("account-email").textContent,
    created: formatTime(set.createdAt),
  });
  const text = `${intro}\n${t("recovery.fileNote")}\n\n${set.codes.join("\n")}\n`;
  $("recovery-codes-text").value = text;
  if (downloadURL) URL.revokeObjectURL(downloadURL);
  downloadURL = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  $("download-recovery-codes").href = downloadURL;
}

async function copyCodes() {
  const text = $("recovery-codes-text").value;
  if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
    try {
      await navigator.clipboard.writeText(text);
      say(t("recovery.copied"), "success");
      setState("copy", "clipboard");
      return;
    } catch {
      // Not allowed here (permissions, focus): fall through to the visible text.
    }
  }
  // Fallback: the codes as selected text, to copy with the keyboard or the context menu.
  const area = $("recovery-codes-text");
  $("recovery-codes-text-label").hidden = false;
  area.hidden = false;
  area.focus();
  area.select();
  say(t("recovery.copyFallback"), "info");
  setState("copy", "fallback");
}

// ---- sign in with a recovery code (signed-out view) ----
const SIGN_IN_MESSAGES = {
  "invalid-credentials": "recovery.signInRefused",
  "invalid-request": "recovery.notACode",
};

async function recoverySignIn(ctx, event) {
  event.preventDefault();
  const form = event.currentTarget;
  if (!valid(form)) return;
  const { email, code } = fields(form);
  const refused = await whileBusy($("recovery-sign-in-submit"), async () => {
    try {
      const session = await api("POST", "/v1/recovery/sessions", { body: { email, code } });
      form.reset();
      $("recovery-sign-in").open = false;
      await ctx.signIn(session);
      say(t("recovery.signedIn"), "success");
      $("recovery-add-passkey").focus();
    } catch (e) {
      if (e instanceof ApiError && SIGN_IN_MESSAGES[e.code]) {
        say(t(SIGN_IN_MESSAGES[e.code]), "error");
        return true;
      }
      if (e instanceof ApiError) say(messageForCode(e.code, e.status), "error");
      else ctx.fail(e);
    }
    return false;
  });
  if (refused) $("recovery-code").focus(); // after whileBusy: a disabled field takes no focus
}
