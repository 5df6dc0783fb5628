// @ts-check
// Passkeys (WebAuthn): the account's list with Remove and "Add a passkey"
// in a dialog opened from the header's "Passkeys" button when signed in,
// and the sign-in with a passkey alone (a discoverable credential: the
// browser asks which of this site's passkeys). The server's options and
// the browser's credentials travel as JSON, their binary fields as
// base64url. Hidden where the browser has no `PublicKeyCredential` (and a
// passkey needs https or localhost: docs/community.md).

import { api } from "./api.js";
import { $ } from "./state.js";

/** Whether this browser has WebAuthn. */
export function hasPasskeys() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

/** @param {string} text base64url, padded or not */
function bytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** @param {ArrayBuffer | null} buf */
function text(buf) {
  if (!buf) return null;
  let bin = "";
  for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The server's creation options (`{publicKey}`) with their binary fields
 * as bytes.
 * @param {any} options
 * @returns {CredentialCreationOptions}
 */
function creationOptions(options) {
  const pk = { ...options.publicKey };
  pk.challenge = bytes(pk.challenge);
  pk.user = { ...pk.user, id: bytes(pk.user.id) };
  pk.excludeCredentials = (pk.excludeCredentials || []).map((/** @type {any} */ c) => ({
    ...c,
    id: bytes(c.id),
  }));
  return { publicKey: pk };
}

/**
 * The server's request options (`{publicKey}`) with their binary fields
 * as bytes.
 * @param {any} options
 * @returns {CredentialRequestOptions}
 */
function requestOptions(options) {
  const pk = { ...options.publicKey };
  pk.challenge = bytes(pk.challenge);
  pk.allowCredentials = (pk.allowCredentials || []).map((/** @type {any} */ c) => ({
    ...c,
    id: bytes(c.id),
  }));
  return { publicKey: pk };
}

/**
 * A new credential as the server reads it.
 * @param {PublicKeyCredential} cred
 */
function registrationJSON(cred) {
  const r = /** @type {AuthenticatorAttestationResponse} */ (cred.response);
  return {
    id: cred.id,
    rawId: text(cred.rawId),
    type: cred.type,
    response: {
      attestationObject: text(r.attestationObject),
      clientDataJSON: text(r.clientDataJSON),
      transports: typeof r.getTransports === "function" ? r.getTransports() : undefined,
    },
    clientExtensionResults: cred.getClientExtensionResults(),
  };
}

/**
 * A signed challenge as the server reads it.
 * @param {PublicKeyCredential} cred
 */
function assertionJSON(cred) {
  const r = /** @type {AuthenticatorAssertionResponse} */ (cred.response);
  return {
    id: cred.id,
    rawId: text(cred.rawId),
    type: cred.type,
    response: {
      authenticatorData: text(r.authenticatorData),
      clientDataJSON: text(r.clientDataJSON),
      signature: text(r.signature),
      userHandle: text(r.userHandle),
    },
    clientExtensionResults: cred.getClientExtensionResults(),
  };
}

/** @param {unknown} e */
function reason(e) {
  // The browser's own refusals (the dialog cancelled, no passkey for this
  // site) are DOMExceptions named NotAllowedError.
  if (e instanceof DOMException && e.name === "NotAllowedError") {
    return "No passkey was given (cancelled, or none for this site).";
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * Signs in with a passkey alone: the browser asks which one.
 * @returns {Promise<any>} the account
 */
export async function signInWithPasskey() {
  try {
    const start = await api.passkeySignInStart();
    const cred = await navigator.credentials.get(requestOptions(start.options));
    if (!cred) throw new Error("No passkey was given.");
    return await api.passkeySignInFinish(
      start.ceremony,
      assertionJSON(/** @type {PublicKeyCredential} */ (cred)),
    );
  } catch (e) {
    throw new Error(reason(e));
  }
}

/** @param {number | null} ms */
function when(ms) {
  return ms ? new Date(ms).toLocaleDateString() : "never";
}

/** @param {string} text */
function showError(text) {
  const el = $("passkeys-error");
  el.textContent = text;
  el.hidden = !text;
}

/** Reads and shows the account's passkeys. */
async function loadPasskeys() {
  const list = $("passkeys-list");
  let keys = [];
  try {
    keys = (await api.passkeys()).passkeys;
  } catch (e) {
    showError(reason(e));
    return;
  }
  list.replaceChildren(
    ...keys.map((/** @type {any} */ k) => {
      const li = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = `${k.name} (added ${when(k.created_at)}, used ${when(k.last_used)})`;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.addEventListener("click", async () => {
        showError("");
        try {
          await api.removePasskey(k.id);
        } catch (e) {
          showError(reason(e));
        }
        await loadPasskeys();
      });
      li.append(label, remove);
      return li;
    }),
  );
  if (!keys.length) {
    const li = document.createElement("li");
    li.className = "hint";
    li.textContent = "No passkeys yet.";
    list.append(li);
  }
}

export function wirePasskeys() {
  const dialog = $("passkeys-dialog", HTMLDialogElement);
  const form = $("passkeys-form", HTMLFormElement);
  const name = $("passkeys-name", HTMLInputElement);
  $("account-passkeys-open").addEventListener("click", () => {
    showError("");
    name.value = "";
    dialog.showModal();
    loadPasskeys();
  });
  $("passkeys-close").addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    try {
      const start = await api.passkeyRegisterStart(name.value);
      const cred = await navigator.credentials.create(creationOptions(start.options));
      if (!cred) throw new Error("No passkey was made.");
      await api.passkeyRegisterFinish(
        start.ceremony,
        registrationJSON(/** @type {PublicKeyCredential} */ (cred)),
      );
      name.value = "";
    } catch (e) {
      showError(reason(e));
    }
    await loadPasskeys();
  });
}
