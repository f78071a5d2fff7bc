// The sessions section: where this account is signed in (method, created, expires, "This
// device" for the page's own session), "End" per session and "End all other sessions". Ending
// this page's own session signs the page out.

import { formatTime } from "./messages.js";
import { $, say, setState, whileBusy, confirmDialog } from "./ui.js";

const METHODS = { password: "Password", passkey: "Passkey", recovery: "Recovery code", email: "Email code" };

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
    showState("The sessions could not be loaded. Reload the page to try again.");
    if (e.code !== "unauthorized") ctx.fail(e);
    return;
  }
  if (mine !== generation) return;
  $("session-list").replaceChildren(...sessions.map((s) => item(ctx, s)));
  const others = sessions.filter((s) => !s.current).length;
  showState(others === 0 ? "No other sessions: this account is signed in only here." : "");
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
  title.textContent = `${METHODS[session.method] || session.method} sign-in`;
  if (session.current) {
    const here = document.createElement("strong");
    here.className = "session-current";
    here.textContent = " · This device";
    title.append(here);
  }
  const dates = document.createElement("p");
  dates.className = "passkey-dates";
  dates.textContent = `Signed in ${formatTime(session.createdAt)} · Expires ${formatTime(session.expiresAt)}`;
  text.append(title, dates);
  const end = document.createElement("button");
  end.type = "button";
  end.className = "danger end-session";
  end.textContent = "End";
  end.setAttribute(
    "aria-label",
    session.current ? "End this session (signs this page out)" : `End the ${title.textContent} from ${dates.textContent}`,
  );
  end.addEventListener("click", () => endOne(ctx, session, end));
  li.append(text, end);
  return li;
}

async function endOne(ctx, session, button) {
  if (session.current) {
    const confirmed = await confirmDialog(
      "End this session?",
      "This page will be signed out. Sign in again to continue.",
      "End and sign out",
    );
    if (!confirmed) return;
  }
  await whileBusy(button, async () => {
    try {
      await ctx.call("DELETE", `/v1/account/sessions/${encodeURIComponent(session.sessionID)}`);
      if (session.current) {
        ctx.endSession();
        say("This session was ended. You are signed out.", "info");
        return;
      }
      say("That session was ended: its device is signed out.", "success");
      await load(ctx);
      $("sessions-heading").focus();
    } catch (e) {
      if (e.code === "not-found") {
        say("That session had already ended.", "info");
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
      say("Every other session was ended. This device stays signed in.", "success");
      await load(ctx);
      $("sessions-heading").focus();
    } catch (e) {
      ctx.fail(e);
    }
  });
}
