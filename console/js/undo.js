// Deleting with undo. A deleted dashboard or widget is hidden at once, but the delete mutation is
// sent only when the undo window closes: after UNDO_MS, when the person dismisses the message, or
// when the page is left (a keepalive request, which outlives the page). Undo therefore only forgets
// the pending delete: nothing was deleted, so ids, widgets and positions stay exactly as they were.
import { currentSession, graphql } from './api.js';
import { announce, h } from './dom.js';

/** How long the "… deleted. Undo" message stays, in milliseconds. */
export const UNDO_MS = 10_000;

const pending = new Map();
let region = null;

/** True while the delete of `id` waits in its undo window (views leave such items out). */
export const isPendingDelete = (id) => pending.has(id);

/**
 * Deletes later, with undo (answers the message's Undo button, for focus): `label` is what the message says ("Dashboard “Sales” deleted."),
 * `mutation` a document taking `$id`; `onUndo` runs when the person chooses Undo, `onFailed(error)` if the delete, sent, fails.
 */
export function deleteWithUndo({ id, label, mutation, onUndo = () => {}, onFailed = () => {} }) {
  if (pending.has(id)) return null;
  const message = h('p', { className: 'card undo-message', dataset: { pendingId: id } });
  const entry = { id, mutation, message, onFailed, timer: setTimeout(() => commit(id), UNDO_MS) };
  message.append(
    `${label} `,
    h('button', { type: 'button', onClick: () => undo(id, onUndo) }, 'Undo'),
    ' ',
    h('button', { type: 'button', className: 'link-button', 'aria-label': `Dismiss: ${label}`, onClick: () => commit(id) }, 'Dismiss'),
  );
  pending.set(id, entry);
  messages().append(message);
  return message.querySelector('button');
}

function undo(id, onUndo) {
  const entry = pending.get(id);
  if (!entry) return;
  clearTimeout(entry.timer);
  pending.delete(id);
  entry.message.remove();
  announce('Undone: nothing was deleted');
  onUndo();
}

/** Sends every pending delete now (before a sign-out, say, which would leave them unsent); resolves when all are answered. */
export const flushPendingDeletes = () => Promise.all([...pending.keys()].map((id) => commit(id)));

/** Sends the delete of `id` now; the message goes with it. */
async function commit(id) {
  const entry = pending.get(id);
  if (!entry) return;
  clearTimeout(entry.timer);
  pending.delete(id);
  entry.message.remove();
  try {
    await graphql(entry.mutation, { id });
  } catch (error) {
    entry.onFailed(error);
  }
}

/** The fixed place the messages show in: outside the view, so they outlive a change of view. */
function messages() {
  if (region?.isConnected) return region;
  region = h('div', { role: 'status', 'aria-live': 'polite', className: 'undo-messages' });
  document.body.append(region);
  return region;
}

// Leaving the page closes every undo window: the deletes go as keepalive requests, which the browser
// sends even as the page goes away (the session cookie and CSRF token go along, as with graphql()).
window.addEventListener('pagehide', () => {
  const session = currentSession();
  for (const entry of pending.values()) {
    clearTimeout(entry.timer);
    if (!session) continue;
    void fetch('/graphql', {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': session.csrfToken },
      body: JSON.stringify({ query: entry.mutation, variables: { id: entry.id } }),
    }).catch(() => {});
  }
  pending.clear();
});
