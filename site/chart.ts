/**
 * The star-history chart of the skill page: an inline SVG (no library, no canvas) built with DOM
 * calls. Points are placed by date (not by index), so uneven gaps show as such.
 */

const SVG = 'http://www.w3.org/2000/svg';
// Sized for the side column (about 300 px wide), so labels render near their nominal size.
const WIDTH = 340;
const HEIGHT = 170;
const PAD = { top: 12, right: 10, bottom: 26, left: 40 };

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, ...children: Node[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.appendChild(child);
  return element;
}

function text(x: number, y: number, anchor: string, value: string): SVGTextElement {
  return svg('text', { x, y, 'text-anchor': anchor, class: 'chart-label' }, document.createTextNode(value));
}

/** Round `value` up to a "nice" axis maximum (1, 2, 2.5 or 5 times a power of ten). */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * power >= value)!;
  return step * power;
}

/** An SVG line chart of `history` (dates ascending), labelled for screen readers. */
export function starChart(history: ReadonlyArray<{ date: string; stars: number }>, format: (n: number) => string): SVGSVGElement {
  const first = history[0]!;
  const last = history[history.length - 1]!;
  const t0 = Date.parse(first.date);
  const span = Math.max(Date.parse(last.date) - t0, 1);
  const top = niceCeiling(Math.max(...history.map((p) => p.stars)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (date: string): number => PAD.left + (history.length === 1 ? plotW : ((Date.parse(date) - t0) / span) * plotW);
  const y = (stars: number): number => PAD.top + plotH - (stars / top) * plotH;
  const points = history.map((p) => `${x(p.date).toFixed(1)},${y(p.stars).toFixed(1)}`);
  const baseline = (PAD.top + plotH).toFixed(1);

  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'chart',
    role: 'img',
    'aria-label': `Star history: ${format(first.stars)} stars on ${first.date}, ${format(last.stars)} on ${last.date}`,
  });
  for (const fraction of [0, 0.5, 1]) {
    const gy = y(top * fraction);
    chart.appendChild(svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: gy, y2: gy, class: 'chart-grid' }));
    chart.appendChild(text(PAD.left - 8, gy + 4, 'end', format(top * fraction)));
  }
  chart.appendChild(svg('path', { d: `M${x(first.date).toFixed(1)},${baseline} L${points.join(' L')} L${x(last.date).toFixed(1)},${baseline} Z`, class: 'chart-area' }));
  chart.appendChild(svg('polyline', { points: points.join(' '), class: 'chart-line' }));
  for (const p of history) {
    chart.appendChild(svg('circle', { cx: x(p.date), cy: y(p.stars), r: 3, class: 'chart-dot' }, svg('title', {}, document.createTextNode(`${p.date}: ${format(p.stars)}`))));
  }
  chart.appendChild(text(PAD.left, HEIGHT - 8, 'start', first.date));
  if (history.length > 1) chart.appendChild(text(WIDTH - PAD.right, HEIGHT - 8, 'end', last.date));
  return chart;
}
