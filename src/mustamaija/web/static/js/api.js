// The server's HTTP API and the table WebSocket (docs/web.md), with seat tokens kept in localStorage.

/** An error answered by the server: `code` is one of the error codes of docs/web.md. */
export class ApiError extends Error {
  constructor(code, message, status = 0, rule = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.rule = rule;
  }
}

/** Call the HTTP API and return the JSON answer; a refusal raises ApiError with the server's message. */
export async function api(path, { method = "GET", body = undefined, token = null } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError("network", `the server cannot be reached (${e.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http", err.message || `the server answered ${response.status}`, response.status, err.rule || null);
  }
  return data;
}

const seatKey = (tableId) => `mustamaija:seat:${tableId}`;

/** Remember a seat's token for a table, so a reload or a return sits there again. */
export function saveSeat(tableId, seat, token) {
  try {
    localStorage.setItem(seatKey(tableId), JSON.stringify({ seat, token }));
  } catch {
    /* Private browsing may refuse storage; the seat link still works. */
  }
}

/** Remember what a seated table is called ({name, title}), for the lobby's list of the player's tables. */
export function describeSeat(tableId, info) {
  const stored = loadSeat(tableId);
  if (!stored || (stored.name === info.name && stored.title === info.title)) return;
  try {
    localStorage.setItem(seatKey(tableId), JSON.stringify({ ...stored, name: info.name || null, title: info.title || null }));
  } catch {
    /* As above. */
  }
}

/** Return the remembered {seat, token, name?, title?} of a table, or null. */
export function loadSeat(tableId) {
  try {
    const value = JSON.parse(localStorage.getItem(seatKey(tableId)) || "null");
    if (value && typeof value.token === "string" && Number.isInteger(value.seat)) return value;
  } catch {
    /* A damaged entry counts as none. */
  }
  return null;
}

/** Forget a table's seat (its token was refused). */
export function forgetSeat(tableId) {
  try {
    localStorage.removeItem(seatKey(tableId));
  } catch {
    /* Nothing to forget. */
  }
}

/** Return the player's name as last typed in the lobby. */
export function savedName() {
  try {
    return localStorage.getItem("mustamaija:name") || "";
  } catch {
    return "";
  }
}

/** Remember the player's name for the next table. */
export function saveName(name) {
  try {
    localStorage.setItem("mustamaija:name", name);
  } catch {
    /* Not remembered then. */
  }
}

/** Return the seat link of a table: the token travels in the fragment, never to the server. */
export function seatLink(tableId, seat, token) {
  return `${location.origin}/t/${encodeURIComponent(tableId)}#seat=${seat}&token=${encodeURIComponent(token)}`;
}

/**
 * A table's WebSocket that reconnects by itself and resumes with `since`.
 *
 * handlers: {message(msg), status("connecting"|"live"|"down"), fatal(code, reason)}
 */
export class TableSocket {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.seq = null;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.nextId = 1;
    this.pingTimer = null;
  }

  /** Open the connection (again). */
  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.handlers.status("connecting");
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token, since: this.seq }));
      this.handlers.status("live");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (typeof msg.seq === "number") this.seq = msg.seq;
      this.handlers.message(msg);
    });
    ws.addEventListener("close", (e) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      // 4401: the token was refused; 4404: no such table. Retrying cannot help.
      if (e.code === 4401 || e.code === 4404) {
        this.handlers.fatal(e.code, e.reason);
        return;
      }
      this.handlers.status("down");
      if (this.closed) return;
      const wait = Math.min(8000, 400 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    });
  }

  /** Send a message if connected; return whether it went out. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send an action on `version`; return its id, or null when offline. */
  act(version, action) {
    const id = `a${this.nextId++}`;
    return this.send({ type: "action", version, action, id }) ? id : null;
  }

  /** Start again as another seat (or as a spectator with a null token). */
  reconnectAs(token) {
    this.token = token;
    this.seq = null;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close();
    }
    this.connect();
  }

  /** Drop the connection for good (tests use it to simulate a drop with `dropForTest`). */
  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  /** Close the socket as a network drop would; it reconnects with `since`. */
  dropForTest() {
    if (this.ws) this.ws.close();
  }
}
