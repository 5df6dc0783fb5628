// @ts-check
// The account control in the page's header: "Sign in" opens a dialog with
// the sign-in and sign-up form (and "Sign in with a passkey", passkey.js);
// signed in, the header shows the name, "Passkeys" and "Sign out". Playing
// needs no account: this module only tells the server who the browser is
// (the session cookie is HttpOnly; the page asks GET /api/account).

import { api } from "./api.js";
import { $ } from "./state.js";
import { wireTokens } from "./tokens.js";
import { hasPasskeys, signInWithPasskey, wirePasskeys } from "./passkey.js";

/**
 * Shows `name` as signed in, or the "Sign in" button when null.
 * @param {string | null} name
 */
function showAccount(name) {
  const label = $("account-name", HTMLAnchorElement);
  label.textContent = name ? name : "";
  label.href = name ? `/@/${encodeURIComponent(name)}` : "/";
  label.hidden = !name;
  $("account-open").hidden = !!name;
  $("account-signout").hidden = !name;
  $("account-tokens-open").hidden = !name;
  $("account-passkeys-open").hidden = !name || !hasPasskeys();
  // A rated game is for accounts: "Play a friend" offers it signed in.
  $("friend-rated-label").hidden = !name;
  // The lobby (lobby.js) hears who the page is signed in as.
  document.dispatchEvent(new CustomEvent("account", { detail: name }));
}

/** @param {string} text */
function showFormError(text) {
  const el = $("account-error");
  el.textContent = text;
  el.hidden = !text;
}

/** Asks the server who this browser is signed in as. */
export async function loadAccount() {
  try {
    const me = await api.account();
    showAccount(me.name);
  } catch (_) {
    // 401 (not signed in), or a server without accounts: anonymous.
    showAccount(null);
  }
}

export function wireAccount() {
  const dialog = $("account-dialog", HTMLDialogElement);
  const form = $("account-form", HTMLFormElement);
  const user = $("account-user", HTMLInputElement);
  const password = $("account-password", HTMLInputElement);
  $("account-open").addEventListener("click", () => {
    showFormError("");
    password.value = "";
    dialog.showModal();
    user.focus();
  });
  $("account-cancel").addEventListener("click", () => dialog.close());
  $("account-passkey").hidden = !hasPasskeys();
  $("account-passkey-signin").addEventListener("click", async () => {
    showFormError("");
    try {
      const me = await signInWithPasskey();
      password.value = "";
      dialog.close();
      showAccount(me.name);
    } catch (e) {
      showFormError(e instanceof Error ? e.message : String(e));
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    const signUp = submitter instanceof HTMLButtonElement && submitter.value === "signup";
    showFormError("");
    try {
      const me = signUp
        ? await api.signUp(user.value, password.value)
        : await api.signIn(user.value, password.value);
      password.value = "";
      dialog.close();
      showAccount(me.name);
    } catch (e) {
      showFormError(e instanceof Error ? e.message : String(e));
    }
  });
  $("account-signout").addEventListener("click", async () => {
    try {
      await api.signOut();
    } catch (_) {
      // The session is gone either way once the page reloads.
    }
    // The browser has a new seat cookie: the page starts again from it.
    location.reload();
  });
  wireTokens();
  wirePasskeys();
  loadAccount();
}
