// Text put into HTML that the page builds as a string: one escape for every page script.

/** `s` (anything; null and undefined as empty) with the characters HTML gives meaning escaped. */
export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
