// The signed-in name: a claimed name and its secret player key, kept in localStorage (docs/web.md, "Ratings").
// The key is shown once when the name is claimed; the server keeps only its hash. A seat taken with it is rated.

const KEY = "mustamaija:player";

/** Return the signed-in {name, key}, or null. */
export function signedIn() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || "null");
    if (value && typeof value.name === "string" && typeof value.key === "string" && value.name && value.key) return value;
  } catch {
    /* A damaged entry counts as none. */
  }
  return null;
}

/** Remember the signed-in name and its key. */
export function signIn(name, key) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ name, key }));
  } catch {
    /* Private browsing may refuse storage: the player stays signed out. */
  }
}

/** Forget the signed-in name (the key is then only where the player wrote it down). */
export function signOut() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* Nothing to forget. */
  }
}

/** Return the fields that make a create or join request a signed-in seat's: the name and its key. */
export function seatFields(nameField) {
  const me = signedIn();
  return me ? { [nameField]: me.name, player_key: me.key } : {};
}
