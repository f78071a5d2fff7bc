// The signed-in view: the account's facts, then one section per feature. Each section is a
// module with wire(ctx) (once, at start) and render(ctx, account) (after every GET /v1/account).
// Recovery codes, sessions and account deletion will be three more modules in this list.

import { $ } from "./ui.js";
import * as passkeys from "./passkeys.js";
import * as password from "./password.js";

const sections = [passkeys, password];

const METHODS = { password: "a password", passkey: "a passkey", recovery: "a recovery code" };

export function wireAccount(ctx) {
  for (const section of sections) section.wire(ctx);
}

export function renderAccount(ctx, account) {
  $("account-name").textContent = account.displayName;
  $("account-email").textContent = account.email;
  const method = ctx.session && ctx.session.method;
  $("account-method").textContent = METHODS[method] || "—";
  for (const section of sections) section.render(ctx, account);
}
