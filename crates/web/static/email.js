// @ts-check
// The pages the emails' links open: `/email/confirm/{token}` (an address
// confirmed) and `/email/unsubscribe/{token}` (one kind of email
// stopped). The page takes the link's token to the server once and says
// what happened, or why nothing did.

import { api } from "./api.js";
import { $ } from "./state.js";

const TITLES = {
  confirm: ["Email address confirmed", "Address not confirmed"],
  unsubscribe: ["Unsubscribed", "Not unsubscribed"],
};

/**
 * Shows the page of link `what` (`confirm` or `unsubscribe`) with `token`.
 * @param {"confirm" | "unsubscribe"} what
 * @param {string} token
 */
export async function showEmailLink(what, token) {
  const [done, failed] = TITLES[what];
  $("email-title").textContent = what === "confirm" ? "Confirming your email address..." : "Unsubscribing...";
  $("email-message").textContent = "";
  document.title = `${done} - Springboard`;
  let title = done;
  let message = "";
  try {
    const answer = await api.emailLink(what, token);
    message = answer.message;
  } catch (err) {
    title = failed;
    const why = String(err.message);
    message = `${why.charAt(0).toUpperCase()}${why.slice(1)}.`;
  }
  if (location.pathname !== `/email/${what}/${token}`) return;
  document.title = `${title} - Springboard`;
  $("email-title").textContent = title;
  $("email-message").textContent = message;
}
