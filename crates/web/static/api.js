// The JSON API. Every failure becomes an Error carrying the server's reason.

async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const resp = await fetch(url, init);
  let data = null;
  try {
    data = await resp.json();
  } catch (_) {
    data = null;
  }
  if (!resp.ok) {
    const reason = data && data.error ? data.error : `request failed (${resp.status})`;
    const err = new Error(reason);
    err.status = resp.status;
    throw err;
  }
  return data;
}

export const api = {
  info: () => call("GET", "/api/info"),
  rules: (variant) => call("GET", `/api/rules/${encodeURIComponent(variant)}`),
  create: (req) => call("POST", "/api/games", req),
  game: (id, ply) => call("GET", `/api/games/${id}` + (ply === undefined ? "" : `?ply=${ply}`)),
  play: (id, move) => call("POST", `/api/games/${id}/move`, { move }),
  undo: (id, plies) => call("POST", `/api/games/${id}/undo?plies=${plies || 1}`),
  fen: (id) => call("GET", `/api/games/${id}/fen`),
  pgn: (id) => call("GET", `/api/games/${id}/pgn`),
  engine: (id, level) => call("POST", `/api/games/${id}/engine`, { level }),
  analysis: (id, ply, limit) => call("POST", `/api/games/${id}/analysis`, { ply, ...limit }),
};
