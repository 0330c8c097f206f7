// Inline SVG line charts: the end-of-game score race and a player's rating over time.

const NS = "http://www.w3.org/2000/svg";
export const COLOURS = ["#1d5c4b", "#d9473f", "#2f86c2", "#c89b3c"];

// series: [{label, values: [numbers], titles?: [text per point]}]; range: [low, high] of the
// y axis. Each series is a polyline (with a dot and a tooltip per point when ``dots``), labelled
// at its end.
export function lineChart({ series, range, xLabel = "", dots = false, width = 460, height = 220 }) {
  const [low, high] = range;
  const L = 44, B = 24, T = 12, R = 12;
  const longest = Math.max(1, ...series.map((s) => s.values.length));
  const x = (i) => L + (i * (width - L - R)) / Math.max(1, longest - 1);
  const y = (v) => T + ((high - v) * (height - T - B)) / (high - low || 1);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  const add = (parent, tag, attrs, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  };
  const base = low <= 0 && high >= 0 ? 0 : low;
  add(svg, "line", { x1: L, y1: y(base), x2: width - R, y2: y(base), stroke: "#999" });
  add(svg, "line", { x1: L, y1: T, x2: L, y2: height - B, stroke: "#999" });
  add(svg, "text", { x: L - 4, y: y(high) + 4, "text-anchor": "end", "font-size": 10 }, Math.round(high));
  add(svg, "text", { x: L - 4, y: y(base) + 4, "text-anchor": "end", "font-size": 10 }, Math.round(base));
  add(svg, "text", { x: (width + L) / 2, y: height - 6, "text-anchor": "middle", "font-size": 10 }, xLabel);
  series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    add(svg, "polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5 });
    if (dots) {
      s.values.forEach((v, i) => {
        const dot = add(svg, "circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3.5, fill: colour });
        if (s.titles) add(dot, "title", {}, s.titles[i]);
      });
    }
    const last = s.values.length - 1;
    if (last >= 0 && s.label) {
      add(svg, "text", { x: x(last) - 4, y: y(s.values[last]) - 7, "text-anchor": "end",
        "font-size": 11, fill: colour }, s.label);
    }
  });
  return svg;
}
