// A warning before unsaved changes are lost: on leaving the page (beforeunload) and on a change of
// view by hash. main.js re-renders on every hashchange; this module's listener is a capturing one on
// window, which runs before main.js's (a bubbling one), so when the person stays it can stop the
// event before the router sees it and put the address back, without any change to the router.

const guards = new Set();

/** The question asked before a change of view drops unsaved changes. */
export const LEAVE_QUESTION = 'You have unsaved changes. Leave this page and lose them?';

/**
 * Warns before leaving while `isDirty()` is true, for as long as `element` is in the page (a view
 * replaced by another drops its guard). Answers `release()`, to call once the changes are saved.
 */
export function guardUnsaved(element, isDirty) {
  const guard = { element, isDirty };
  guards.add(guard);
  return () => guards.delete(guard);
}

/** True when some view on show has unsaved changes; stale guards (their view gone) are dropped. */
export function hasUnsavedChanges() {
  for (const guard of guards) {
    if (!guard.element.isConnected) guards.delete(guard);
    else if (guard.isDirty()) return true;
  }
  return false;
}

/** What a router may call before it changes view: true to go on (nothing unsaved, or the person agreed). */
export function canLeave() {
  if (!hasUnsavedChanges()) return true;
  if (!window.confirm(LEAVE_QUESTION)) return false;
  guards.clear();
  return true;
}

window.addEventListener(
  'hashchange',
  (event) => {
    if (canLeave()) return;
    // Staying: the router must not draw the next view, and the address goes back to this one.
    event.stopImmediatePropagation();
    history.replaceState(history.state, '', event.oldURL);
  },
  { capture: true },
);

window.addEventListener('beforeunload', (event) => {
  if (!hasUnsavedChanges()) return;
  event.preventDefault();
  // Browsers before 2023 ask for a non-empty returnValue; the text shown is the browser's own.
  event.returnValue = LEAVE_QUESTION;
});
