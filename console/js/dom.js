// Small DOM helpers. Text always goes in as text (never innerHTML), so API data cannot inject markup.

/** Creates an element: attributes (`on*` functions become listeners, booleans toggle) and children (strings become text). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'className') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name === 'value' || name === 'checked' || name === 'selected') element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children; arrays are flattened, null and false are skipped. */
export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

let ids = 0;
/** A document-unique id for label/aria wiring. */
export const uid = (prefix) => `${prefix}-${++ids}`;

/** A labelled form control: `<label for>` + control + a slot for the field's error message. */
export function field(label, control, { hint, errorKey } = {}) {
  control.id ||= uid('f');
  const error = h('p', { className: 'field-error', id: `${control.id}-error`, hidden: true });
  const hintEl = hint ? h('p', { className: 'hint', id: `${control.id}-hint` }, hint) : null;
  control.setAttribute('aria-describedby', [hintEl?.id, error.id].filter(Boolean).join(' '));
  const wrapper = h('div', { className: 'field', dataset: errorKey ? { errorKey } : {} }, h('label', { for: control.id }, label), control, hintEl, error);
  return wrapper;
}

/** A `<select>` of [value, label] pairs. */
export function select(options, attributes = {}) {
  const current = attributes.value;
  const element = h('select', { ...attributes, value: undefined });
  for (const [value, label] of options) element.append(h('option', { value, selected: value === current }, label));
  if (current !== undefined) element.value = current;
  return element;
}

/** Says something to screen readers without moving focus. */
export function announce(text) {
  const announcer = document.getElementById('announcer');
  if (!announcer) return;
  announcer.textContent = '';
  setTimeout(() => (announcer.textContent = text), 50);
}
