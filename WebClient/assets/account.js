// The signed-in view: the account's facts, then one section per feature. Each section is a
// module with wire(ctx) (once, at start) and render(ctx, account) (after every GET /v1/account).
// A section may also have reset() (on sign-out: forget what it showed).

import { $ } from "./ui.js";
import { t } from "./language.js";
import * as passkeys from "./passkeys.js";
import * as password from "./password.js";
import * as recovery from "./recovery.js";
import * as sessions from "./sessions.js";
import * as deletion from "./deletion.js";
import * as email from "./email.js";
import * as activity from "./activity.js";

const sections = [email, recovery, passkeys, password, sessions, activity, deletion];

/** How this session signed in, as the catalogue says it. */
const METHODS = {
  password: "method.password",
  passkey: "method.passkey",
  recovery: "method.recovery",
  email: "method.email",
};

export function wireAccount(ctx) {
  for (const section of sections) section.wire(ctx);
}

export function renderAccount(ctx, account) {
  $("account-name").textContent = account.displayName;
  $("account-email").textContent = account.email;
  $("account-email-state").textContent = account.emailVerified ? t("email.verified") : t("email.notVerified");
  $("account-email-state").dataset.verified = String(Boolean(account.emailVerified));
  const method = ctx.session && ctx.session.method;
  $("account-method").textContent = METHODS[method] ? t(METHODS[method]) : "—";
  for (const section of sections) section.render(ctx, account);
}

/** On sign-out: nothing of the account stays on the page (the recovery codes above all). */
export function resetAccount() {
  recovery.hideCodes();
  $("recovery-offer").hidden = true;
  email.reset();
  $("session-list").replaceChildren();
  activity.reset();
}
