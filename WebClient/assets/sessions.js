// The sessions section: where this account is signed in (method, created, expires, "This
// device" for the page's own session), "End" per session and "End all other sessions". Ending
// this page's own session signs the page out.

import { t, formatTime } from "./language.js";
import { $, say, setState, whileBusy, confirmDialog } from "./ui.js";

/** "Password sign-in", … : each method's catalogue key. */
const METHODS = {
  password: "sessions.password",
  passkey: "sessions.passkey",
  recovery: "sessions.recovery",
  email: "sessions.email",
};

let generation = 0;

export function wire(ctx) {
  $("end-other-sessions").addEventListener("click", (e) => endOthers(ctx, e.currentTarget));
}

/** Loads the list after every account render; `data-sessions` says when it is ready. */
export function render(ctx) {
  load(ctx);
}

async function load(ctx) {
  const mine = ++generation;
  setState("sessions", "loading");
  let sessions;
  try {
    sessions = await ctx.call("GET", "/v1/account/sessions");
  } catch (e) {
    if (mine !== generation) return;
    setState("sessions", "failed");
    showState(t("sessions.loadFailed"));
    if (e.code !== "unauthorized") ctx.fail(e);
    return;
  }
  if (mine !== generation) return;
  $("session-list").replaceChildren(...sessions.map((s) => item(ctx, s)));
  const others = sessions.filter((s) => !s.current).length;
  showState(others === 0 ? t("sessions.noOthers") : "");
  $("end-other-sessions").hidden = others === 0;
  setState("sessions", "ready");
}

function showState(text) {
  $("sessions-state").textContent = text;
  $("sessions-state").hidden = !text;
}

function item(ctx, session) {
  const li = document.createElement("li");
  li.className = "passkey session";
  li.dataset.sessionId = session.sessionID;
  li.dataset.current = String(session.current);
  const text = document.createElement("div");
  text.className = "passkey-text";
  const title = document.createElement("h3");
  title.className = "session-method";
  const method = METHODS[session.method] ? t(METHODS[session.method]) : session.method;
  title.textContent = method;
  if (session.current) {
    const here = document.createElement("strong");
    here.className = "session-current";
    here.textContent = t("sessions.thisDevice");
    title.append(" · ", here);
  }
  const dates = document.createElement("p");
  dates.className = "passkey-dates";
  dates.textContent = t("sessions.dates", {
    created: formatTime(session.createdAt),
    expires: formatTime(session.expiresAt),
  });
  text.append(title, dates);
  const end = document.createElement("button");
  end.type = "button";
  end.className = "danger end-session";
  end.textContent = t("sessions.end");
  end.setAttribute(
    "aria-label",
    session.current ? t("sessions.endCurrentLabel") : t("sessions.endLabel", { method, dates: dates.textContent }),
  );
  end.addEventListener("click", () => endOne(ctx, session, end));
  li.append(text, end);
  return li;
}

async function endOne(ctx, session, button) {
  if (session.current) {
    const confirmed = await confirmDialog(t("sessions.endTitle"), t("sessions.endText"), t("sessions.endConfirm"));
    if (!confirmed) return;
  }
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", `/v1/account/sessions/${encodeURIComponent(session.sessionID)}`);
      if (session.current) {
        ctx.endSession();
        say(t("sessions.endedThis"), "info");
        return;
      }
      say(t("sessions.endedOne"), "success");
      await load(ctx);
      $("sessions-heading").focus();
    } catch (e) {
      if (e.code === "not-found") {
        say(t("sessions.alreadyEnded"), "info");
        await load(ctx);
      } else {
        ctx.fail(e);
      }
    }
  });
}

async function endOthers(ctx, button) {
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", "/v1/account/sessions");
      say(t("sessions.endedOthers"), "success");
      await load(ctx);
      $("sessions-heading").focus();
    } catch (e) {
      ctx.fail(e);
    }
  });
}
