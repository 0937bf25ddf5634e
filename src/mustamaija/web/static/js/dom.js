// Small DOM helpers shared by the pages.

/** Return the element with this id. */
export const $ = (id) => document.getElementById(id);

/** Return a new element with a class and text. */
export function el(tag, cls = "", text = "") {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}
