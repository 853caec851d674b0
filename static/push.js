// Changes pushed by the server (game/matches/push.py): WyrmdexPush.open(path, onMessage, onState) keeps a socket
// open, reopening it after a drop (1 s, then longer, up to 30 s); pages go on polling as the fallback. On every page
// of a signed-in player, the number of matches waiting for their move (beside Play, and in the title) follows it.
(function () {
  "use strict";
  const body = document.body;
  const base = body.dataset.push || "";  // settings.PUSH_URL, or this same site

  function address(path) {
    if (base) return base + path;
    return `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}${path}`;
  }

  function open(path, onMessage, onState) {
    let delay = 1000;
    let stopped = false;
    let socket = null;
    const state = (up) => { if (onState) onState(up); };
    function connect() {
      if (!("WebSocket" in window) || stopped) return;
      socket = new WebSocket(address(path));
      socket.addEventListener("open", () => { delay = 1000; state(true); });
      socket.addEventListener("message", (event) => {
        let message = null;
        try { message = JSON.parse(event.data); } catch (err) { return; }
        onMessage(message);
      });
      socket.addEventListener("close", (event) => {
        state(false);
        if (stopped || event.code === 4403 || event.code === 4404) return;  // refused: asking again will not help
        window.setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30000);
      });
    }
    connect();
    return {close() { stopped = true; if (socket) socket.close(); }};
  }

  function showTurns(count) {
    const link = document.getElementById("play-link");
    if (!link) return;
    let badge = document.getElementById("turn-count");
    if (!count) {
      if (badge) badge.remove();
    } else {
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "turn-count";
        badge.id = "turn-count";
        badge.title = "Matches waiting for your move";
        link.append(" ", badge);
      }
      const hidden = document.createElement("span");
      hidden.className = "visually-hidden";
      hidden.textContent = " waiting for your move";
      badge.replaceChildren(String(count), hidden);
    }
    document.title = (count ? `(${count}) ` : "") + document.title.replace(/^\(\d+\) /, "");
  }

  window.WyrmdexPush = {open, showTurns};
  if (body.dataset.player) {
    open("/ws/me/", (message) => { if (message.kind === "turns") showTurns(message.count); });
  }
})();
