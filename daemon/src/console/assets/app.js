// The hookgate console. Every string from the gateway is set with
// textContent (never innerHTML); every state change is a POST carrying
// the CSRF value the page's meta tag holds.
"use strict";

const CSRF = document.querySelector('meta[name="hookgate-csrf"]').content;
const MAX_ROWS = 500;
const events = [];
let held = [];
let lost = 0;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c) node.appendChild(c);
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function show(tab) {
  for (const s of document.querySelectorAll(".tab")) s.classList.toggle("on", s.id === tab);
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("on", b.dataset.tab === tab);
  if (tab === "charts") charts();
  if (tab === "sessions") timelines();
}

function ms(us) {
  if (us === null || us === undefined) return "";
  return us >= 1000 ? (us / 1000).toFixed(1) + " ms" : us + " µs";
}

function time(tsMs) {
  return new Date(tsMs).toLocaleTimeString();
}

// ---- the live stream ----

function matches(e) {
  const agent = document.getElementById("f-agent").value.trim().toLowerCase();
  const decision = document.getElementById("f-decision").value;
  const text = document.getElementById("f-text").value.trim().toLowerCase();
  if (agent && !String(e.agent || "").toLowerCase().includes(agent)) return false;
  if (decision && e.decision !== decision) return false;
  if (text) {
    const hay = [e.tool, e.command, e.reason, e.event, e.session].join(" ").toLowerCase();
    if (!hay.includes(text)) return false;
  }
  return true;
}

function row(e) {
  const decision = String(e.decision || "none");
  const tr = el("tr", { "data-id": e.id },
    el("td", { text: time(e.ts_ms) }),
    el("td", { text: e.agent || "?" }),
    el("td", { text: e.event || "" }),
    el("td", { text: (e.tool || "") + (e.command ? ": " + e.command : "") }),
    el("td", { class: "d-" + decision, text: decision + (e.held ? " (held)" : "") }),
    el("td", { class: "reason", text: e.reason || e.error || "" }),
    el("td", { text: ms(e.latency_us) }));
  tr.addEventListener("click", () => detail(e.id));
  return tr;
}

function render() {
  const body = document.getElementById("events");
  body.replaceChildren(...events.filter(matches).slice().reverse().map(row));
  document.getElementById("lost").textContent = lost ? lost + " events lost (stream behind)" : "";
}

function add(e) {
  events.push(e);
  if (events.length > MAX_ROWS) events.shift();
  if (matches(e)) {
    const body = document.getElementById("events");
    body.insertBefore(row(e), body.firstChild);
    while (body.children.length > MAX_ROWS) body.removeChild(body.lastChild);
  }
}

// ---- the approvals inbox ----

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Hookgate-CSRF": CSRF },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  if (!res.ok) alert(await res.text());
}

function card(h) {
  const reason = el("input", { placeholder: "reason (the agent reads it)", class: "deny-reason" });
  const approve = el("button", { class: "approve", text: "Approve" });
  approve.addEventListener("click", () => post(`/api/approvals/${h.id}/approve`, { scope: "once" }));
  const session = el("button", { class: "session", text: "Allow for this session" });
  session.addEventListener("click", () => post(`/api/approvals/${h.id}/approve`, { scope: "session" }));
  const deny = el("button", { class: "deny", text: "Deny" });
  deny.addEventListener("click", () => post(`/api/approvals/${h.id}/deny`, { reason: reason.value }));
  const left = el("span", { class: "left", "data-deadline": h.deadline_unix_ms });
  return el("div", { class: "card", "data-id": h.id },
    el("h3", { text: `#${h.id} ${h.agent} · ${h.tool || h.event}` }),
    el("div", { class: "meta", text: `session ${h.session || "-"} · held by ${h.subscriber}` + (h.rule ? ` · rule ${h.rule}` : "") + (h.reason ? ` · ${h.reason}` : "") }),
    el("pre", { class: "input", text: h.input }),
    el("div", { class: "actions" }, approve, session, reason, deny, left));
}

function inbox() {
  document.getElementById("held-count").textContent = String(held.length);
  document.getElementById("inbox-empty").style.display = held.length ? "none" : "block";
  document.getElementById("held").replaceChildren(...held.map(card));
  tick();
}

function tick() {
  for (const span of document.querySelectorAll(".left")) {
    const left = Math.max(0, Number(span.dataset.deadline) - Date.now());
    span.textContent = Math.ceil(left / 1000) + " s left";
  }
}

// ---- one event ----

async function detail(id) {
  const res = await fetch("/api/events/" + encodeURIComponent(id), { credentials: "same-origin" });
  if (!res.ok) return;
  const d = await res.json();
  document.getElementById("detail-title").textContent =
    `${d.agent || "?"} ${d.event || ""} ${d.tool ? d.tool.name : ""} · ${d.id} · ${ms(d.latency_us)} · ${d.delivery}`;
  const body = document.querySelector("#detail-subs tbody");
  body.replaceChildren(...(d.subscribers || []).map((s) => {
    const a = s.approval;
    return el("tr", {},
      el("td", { text: s.name }),
      el("td", { class: "d-" + s.permission, text: s.permission }),
      el("td", { text: ms(s.latency_us) }),
      el("td", { text: s.rule || "" }),
      el("td", { text: s.failed || "" }),
      el("td", { text: a ? `${a.outcome} by ${a.approver} via ${a.channel} after ${a.wait_ms} ms` : "" }));
  }));
  document.getElementById("detail-decision").textContent = JSON.stringify(d.decision, null, 2);
  document.getElementById("detail-losses").textContent = (d.losses || []).join(", ") || "none";
  const r = d.reply;
  document.getElementById("detail-reply").textContent = r
    ? `exit ${r.exit_code}\nstdout: ${r.stdout || "(empty)"}\nstderr: ${r.stderr || "(empty)"}`
    : "not kept";
  document.getElementById("detail-payload").textContent = JSON.stringify(d.payload, null, 2);
  show("detail");
}

// ---- sessions ----

function timelines() {
  const by = new Map();
  for (const e of events) {
    const key = `${e.agent || "?"} · ${e.session || "no session"}`;
    if (!by.has(key)) by.set(key, []);
    by.get(key).push(e);
  }
  const boxes = [];
  for (const [key, list] of by) {
    const first = list[0].ts_ms, last = list[list.length - 1].ts_ms;
    const span = Math.max(1, last - first);
    const width = 800, height = 40;
    const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}` });
    chart.appendChild(svg("line", { x1: 10, y1: 20, x2: width - 10, y2: 20, stroke: "#c5cbd3" }));
    for (const e of list) {
      const x = 10 + ((e.ts_ms - first) / span) * (width - 20);
      const color = { allow: "#1e8449", deny: "#c0392b", ask: "#b9770e" }[e.decision] || "#7f8c8d";
      const dot = svg("circle", { cx: x.toFixed(1), cy: 20, r: 6, fill: color });
      dot.appendChild(svg("title", {}, `${time(e.ts_ms)} ${e.event} ${e.tool || ""} ${e.decision}`));
      dot.addEventListener("click", () => detail(e.id));
      chart.appendChild(dot);
    }
    boxes.push(el("div", { class: "timeline" }, el("h3", { text: `${key} (${list.length} events)` }), chart));
  }
  document.getElementById("timelines").replaceChildren(...boxes);
}

// ---- subscribers ----

async function charts() {
  const res = await fetch("/api/metrics", { credentials: "same-origin" });
  if (!res.ok) return;
  const m = await res.json();
  const subs = m.subscribers || [];
  const area = document.getElementById("chart-area");
  const maxP99 = Math.max(1, ...subs.map((s) => (s.latency ? s.latency.p99_us : 0)));
  const maxCalls = Math.max(1, ...subs.map((s) => s.calls || 0));
  const rowH = 28, width = 1220, label = 160, bar = 300;
  const height = rowH * subs.length + 30;
  const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}` });
  chart.appendChild(svg("text", { x: label, y: 14 }, "latency p50 / p99"));
  chart.appendChild(svg("text", { x: label + bar + 40, y: 14 }, "calls: ok / errors / timeouts / drops"));
  subs.forEach((s, i) => {
    const y = 24 + i * rowH;
    const l = s.latency || {};
    chart.appendChild(svg("text", { x: 0, y: y + 14 }, s.name));
    chart.appendChild(svg("rect", { x: label, y, width: (l.p99_us / maxP99) * bar || 0, height: 18, fill: "#aed6f1" }));
    chart.appendChild(svg("rect", { x: label, y, width: (l.p50_us / maxP99) * bar || 0, height: 18, fill: "#2e86c1" }));
    chart.appendChild(svg("text", { x: label + 4, y: y + 13 }, `${ms(l.p50_us)} / ${ms(l.p99_us)}`));
    let x = label + bar + 40;
    for (const [n, color] of [[s.ok, "#1e8449"], [s.errors, "#c0392b"], [s.timeouts, "#e67e22"], [s.drops, "#7f8c8d"]]) {
      const w = ((n || 0) / maxCalls) * 300;
      chart.appendChild(svg("rect", { x, y, width: w, height: 18, fill: color }));
      x += w;
    }
    const would = Object.entries(s.would || {}).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(", ");
    chart.appendChild(svg("text", { x: x + 6, y: y + 13 }, `${s.calls} calls` + (would ? ` · shadow would: ${would}` : "")));
  });
  area.replaceChildren(el("div", { class: "chart" }, chart),
    el("p", { text: `console: ${m.console.dropped} events dropped, ${m.console.lagged} lost by slow streams` }));
}

// ---- wiring ----

async function start() {
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => show(b.dataset.tab));
  document.getElementById("back").addEventListener("click", () => show("stream"));
  for (const id of ["f-agent", "f-decision", "f-text"]) document.getElementById(id).addEventListener("input", render);
  document.getElementById("filters").addEventListener("submit", (ev) => ev.preventDefault());
  const res = await fetch("/api/events", { credentials: "same-origin" });
  if (res.ok) for (const e of await res.json()) events.push(e);
  render();
  const source = new EventSource("/api/stream");
  const live = document.getElementById("live");
  source.onopen = () => { live.className = "on"; live.textContent = "live"; };
  source.onerror = () => { live.className = "off"; live.textContent = "reconnecting…"; };
  source.addEventListener("event", (m) => add(JSON.parse(m.data)));
  source.addEventListener("approvals", (m) => { held = JSON.parse(m.data); inbox(); });
  source.addEventListener("lagged", (m) => { lost += JSON.parse(m.data).lost; render(); });
  setInterval(tick, 1000);
}

start();
